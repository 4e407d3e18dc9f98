// docs/snapshots.md §3.4: the questions syncContent asks of a content -
// shouldDelete's rules (a)-(d), whether the backend snapshot goes with it,
// which branch handles it - and §9.6's "create abandoned".
#include "snapshotter/content_state.h"

#include <gtest/gtest.h>

#include "snapshot/names.h"

namespace snapshotter {
namespace {

kube::VolumeSnapshotContent Dynamic() {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "content-1";
  content.spec.deletion_policy = "Delete";
  content.spec.source.volume_handle = "vol-1";
  content.spec.volume_snapshot_ref.uid = "uid-1";
  return content;
}

kube::VolumeSnapshotContent Deleted(kube::VolumeSnapshotContent content) {
  content.metadata.deletion_timestamp = "2023-11-14T22:00:00Z";
  return content;
}

TEST(ShouldDelete, NeedsADeletionTimestamp) {
  kube::VolumeSnapshotContent content = Dynamic();
  content.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  EXPECT_FALSE(ShouldDelete(content));
  EXPECT_TRUE(ShouldDelete(Deleted(content)));
}

TEST(ShouldDelete, UnboundPreProvisionedContentGoesEvenWhileBeingCreated) {
  kube::VolumeSnapshotContent content = Deleted(Dynamic());
  content.spec.source = {.snapshot_handle = "snap-1"};
  content.spec.volume_snapshot_ref.uid.clear();
  content.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  EXPECT_TRUE(ShouldDelete(content));  // (a)
  content.spec.volume_snapshot_ref.uid = "uid-1";
  EXPECT_FALSE(ShouldDelete(content));  // bound: (b)
}

TEST(ShouldDelete, BeingCreatedWinsOverBeingDeleted) {
  kube::VolumeSnapshotContent content = Deleted(Dynamic());
  content.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  EXPECT_TRUE(ShouldDelete(content));  // (c)
  content.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  EXPECT_FALSE(ShouldDelete(content));  // (b)
}

TEST(ShouldDelete, ContentOfALiveSnapshotStays) {
  EXPECT_FALSE(ShouldDelete(Deleted(Dynamic())));  // (d)
}

TEST(DeletesBackendSnapshot, PolicyDeleteWithHandleAndNoGroup) {
  kube::VolumeSnapshotContent content = Dynamic();
  EXPECT_FALSE(DeletesBackendSnapshot(content));  // no status
  content.status = kube::VolumeSnapshotContentStatus{.snapshot_handle = "snap-1"};
  EXPECT_TRUE(DeletesBackendSnapshot(content));
  content.spec.deletion_policy = "Retain";
  EXPECT_FALSE(DeletesBackendSnapshot(content));
  content.spec.deletion_policy = "Delete";
  content.status->volume_group_snapshot_handle = "group-1";
  EXPECT_FALSE(DeletesBackendSnapshot(content));
}

TEST(Branches, FirstCreateListCheckAndGroupMembership) {
  kube::VolumeSnapshotContent content = Dynamic();
  EXPECT_TRUE(NeedsFirstCreate(content));
  EXPECT_FALSE(ChecksThroughList(content));
  content.status = kube::VolumeSnapshotContentStatus{.snapshot_handle = "s"};
  EXPECT_FALSE(NeedsFirstCreate(content));
  EXPECT_FALSE(ChecksThroughList(content));
  content.status->volume_group_snapshot_handle = "g";
  EXPECT_TRUE(ChecksThroughList(content));

  kube::VolumeSnapshotContent member = Dynamic();
  member.metadata.annotations[snapshot::kGroupSnapshotHandleAnnotation] = "g";
  EXPECT_TRUE(IsGroupMember(member));
  EXPECT_FALSE(NeedsFirstCreate(member));

  kube::VolumeSnapshotContent imported = Dynamic();
  imported.spec.source = {.snapshot_handle = "snap-1"};
  EXPECT_FALSE(NeedsFirstCreate(imported));
  EXPECT_TRUE(ChecksThroughList(imported));
}

TEST(IsCreateAbandoned, SnapshotBeingDeletedFailedCreateNothingInFlightNothingMade) {
  kube::VolumeSnapshotContent content = Dynamic();
  content.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  content.status = kube::VolumeSnapshotContentStatus{
      .ready_to_use = false, .error = kube::VolumeSnapshotError{.message = "boom"}};
  EXPECT_TRUE(IsCreateAbandoned(content));

  kube::VolumeSnapshotContent in_flight = content;
  in_flight.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  EXPECT_FALSE(IsCreateAbandoned(in_flight));
  kube::VolumeSnapshotContent made = content;
  made.status->snapshot_handle = "snap-1";
  EXPECT_FALSE(IsCreateAbandoned(made));
  kube::VolumeSnapshotContent no_error = content;
  no_error.status->error.reset();
  EXPECT_FALSE(IsCreateAbandoned(no_error));
  kube::VolumeSnapshotContent snapshot_lives = content;
  snapshot_lives.metadata.annotations.erase(snapshot::kBeingDeletedAnnotation);
  EXPECT_FALSE(IsCreateAbandoned(snapshot_lives));
}

}  // namespace
}  // namespace snapshotter
