// docs/snapshots.md §4.2 (what queues what), §9.3 (the controller's own
// writes cause no sync; the sidecar's do) and §9.5 (lanes), for the single
// kinds and, by the same rules, the group kinds (§4.7).
#include "snapshot_controller/event_filters.h"

#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "snapshot_controller/group_event_filters.h"
#include "snapshot_controller/names.h"
#include "tests/support/snapshot_objects.h"

namespace snapshot_controller {
namespace {

using kube::VolumeGroupSnapshot;
using kube::VolumeGroupSnapshotContent;
using kube::VolumeSnapshot;
using kube::VolumeSnapshotContent;
using Lane = kube::WorkQueue::Lane;
using testsupport::MakeContent;
using testsupport::MakeGroupContent;
using testsupport::MakeGroupSnapshot;
using testsupport::MakeReadyContent;
using testsupport::MakeReadyGroupSnapshot;
using testsupport::MakeReadySnapshot;
using testsupport::MakeSnapshot;

constexpr std::string_view kDeletedAt = "2024-01-01T00:00:00Z";

// The next version of `object`, as the watch reports a change.
template <class T>
T Next(T object) {
  object.metadata.resource_version =
      std::to_string(std::stoi(object.metadata.resource_version) + 1);
  return object;
}

// --- VolumeSnapshot updates (§9.3) ---

TEST(ShouldSyncSnapshotUpdateTest, ResyncAlwaysCounts) {
  VolumeSnapshot snapshot = MakeSnapshot("default", "s");
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(snapshot, snapshot));
}

TEST(ShouldSyncSnapshotUpdateTest, OwnStatusWriteDoesNotCount) {
  VolumeSnapshot old_snapshot = MakeSnapshot("default", "s");
  VolumeSnapshot new_snapshot = Next(old_snapshot);
  new_snapshot.status.emplace();
  new_snapshot.status->bound_volume_snapshot_content_name = "c";
  new_snapshot.status->ready_to_use = false;
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(old_snapshot, new_snapshot));
  VolumeSnapshot ready = Next(new_snapshot);
  ready.status->ready_to_use = true;
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(new_snapshot, ready));
}

TEST(ShouldSyncSnapshotUpdateTest, OwnFinalizersAddedOrRemovedDoNotCount) {
  VolumeSnapshot old_snapshot = MakeSnapshot("default", "s");
  VolumeSnapshot added = Next(old_snapshot);
  added.metadata.finalizers = {std::string(kSnapshotAsSourceFinalizer),
                               std::string(kSnapshotBoundFinalizer)};
  added.metadata.has_finalizers_field = true;
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(old_snapshot, added));
  VolumeSnapshot removed = Next(added);
  removed.metadata.finalizers = {std::string(kSnapshotAsSourceFinalizer)};
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(added, removed));
  VolumeSnapshot none_left = Next(removed);
  none_left.metadata.finalizers.clear();
  none_left.metadata.has_finalizers_field = false;
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(removed, none_left));
}

TEST(ShouldSyncSnapshotUpdateTest, AnotherWritersFinalizerCounts) {
  VolumeSnapshot old_snapshot = MakeSnapshot("default", "s");
  old_snapshot.metadata.finalizers = {std::string(kSnapshotAsSourceFinalizer)};
  old_snapshot.metadata.has_finalizers_field = true;
  VolumeSnapshot new_snapshot = Next(old_snapshot);
  new_snapshot.metadata.finalizers.push_back("example.com/backup");
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_snapshot, new_snapshot));
}

TEST(ShouldSyncSnapshotUpdateTest, OwnWriteTogetherWithAnotherChangeCounts) {
  VolumeSnapshot old_snapshot = MakeSnapshot("default", "s");
  VolumeSnapshot new_snapshot = Next(old_snapshot);
  new_snapshot.status.emplace();
  new_snapshot.status->ready_to_use = false;
  new_snapshot.metadata.labels["team"] = "a";
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_snapshot, new_snapshot));
}

TEST(ShouldSyncSnapshotUpdateTest, DeletionSpecAndAnnotationsCount) {
  VolumeSnapshot old_snapshot = MakeSnapshot("default", "s");
  VolumeSnapshot deleted = Next(old_snapshot);
  deleted.metadata.deletion_timestamp = kDeletedAt;
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_snapshot, deleted));
  VolumeSnapshot classed = Next(old_snapshot);
  classed.spec.volume_snapshot_class_name = "class-1";
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_snapshot, classed));
  VolumeSnapshot annotated = Next(old_snapshot);
  annotated.metadata.annotations["example.com/note"] = "x";
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_snapshot, annotated));
}

// --- content updates (§9.3) ---

TEST(ShouldSyncContentUpdateTest, ResyncAlwaysCounts) {
  VolumeSnapshotContent content = MakeContent("c");
  EXPECT_TRUE(ShouldSyncContentUpdate(content, content));
}

TEST(ShouldSyncContentUpdateTest, OwnBeingDeletedAnnotationDoesNotCount) {
  VolumeSnapshotContent old_content = MakeContent("c");
  old_content.metadata.annotations["example.com/note"] = "x";
  VolumeSnapshotContent new_content = Next(old_content);
  new_content.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  EXPECT_FALSE(ShouldSyncContentUpdate(old_content, new_content));
}

TEST(ShouldSyncContentUpdateTest, OwnBoundFinalizerAddedDoesNotCount) {
  VolumeSnapshotContent old_content = MakeContent("c");
  VolumeSnapshotContent new_content = Next(old_content);
  new_content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  new_content.metadata.has_finalizers_field = true;
  EXPECT_FALSE(ShouldSyncContentUpdate(old_content, new_content));
}

// The sidecar removes it once the snapshot is deleted.
TEST(ShouldSyncContentUpdateTest, BoundFinalizerRemovedCounts) {
  VolumeSnapshotContent old_content = MakeContent("c");
  old_content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  old_content.metadata.has_finalizers_field = true;
  old_content.metadata.deletion_timestamp = kDeletedAt;
  VolumeSnapshotContent new_content = Next(old_content);
  new_content.metadata.finalizers.clear();
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, new_content));
}

// The controller mirrors the sidecar's status into the VolumeSnapshot (§4.4).
TEST(ShouldSyncContentUpdateTest, SidecarsStatusWriteCounts) {
  VolumeSnapshotContent old_content = MakeContent("c");
  VolumeSnapshotContent created = Next(old_content);
  created.status.emplace();
  created.status->snapshot_handle = "snap-handle";
  created.status->ready_to_use = false;
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, created));
  VolumeSnapshotContent ready = Next(created);
  ready.status->ready_to_use = true;
  EXPECT_TRUE(ShouldSyncContentUpdate(created, ready));
}

TEST(ShouldSyncContentUpdateTest, SpecOtherAnnotationsAndFinalizersCount) {
  VolumeSnapshotContent old_content = MakeContent("c");
  VolumeSnapshotContent rebound = Next(old_content);
  rebound.spec.volume_snapshot_ref.uid = "uid-2";
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, rebound));
  VolumeSnapshotContent annotated = Next(old_content);
  annotated.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, annotated));
  VolumeSnapshotContent other_finalizer = Next(old_content);
  other_finalizer.metadata.finalizers = {"example.com/keep"};
  other_finalizer.metadata.has_finalizers_field = true;
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, other_finalizer));
}

TEST(ShouldSyncContentUpdateTest, OwnWriteTogetherWithStatusCounts) {
  VolumeSnapshotContent old_content = MakeContent("c");
  VolumeSnapshotContent new_content = Next(old_content);
  new_content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  new_content.metadata.has_finalizers_field = true;
  new_content.status.emplace();
  new_content.status->ready_to_use = true;
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, new_content));
}

// --- lanes (§9.5) ---

TEST(SnapshotLaneTest, SnapshotsThatNeedActionAreUrgent) {
  EXPECT_EQ(SnapshotLane(MakeSnapshot("default", "s")), Lane::kUrgent);  // no status yet
  VolumeSnapshot unready = MakeReadySnapshot("default", "s", "c");
  unready.status->ready_to_use = false;
  EXPECT_EQ(SnapshotLane(unready), Lane::kUrgent);
  VolumeSnapshot deleted = MakeReadySnapshot("default", "s", "c");
  deleted.metadata.deletion_timestamp = kDeletedAt;
  EXPECT_EQ(SnapshotLane(deleted), Lane::kUrgent);
}

TEST(SnapshotLaneTest, ReadySnapshotsAreNormal) {
  EXPECT_EQ(SnapshotLane(MakeReadySnapshot("default", "s", "c")), Lane::kNormal);
}

TEST(ContentLaneTest, ContentsThatNeedActionAreUrgent) {
  EXPECT_EQ(ContentLane(MakeContent("c")), Lane::kUrgent);  // no status yet
  VolumeSnapshotContent deleted = MakeReadyContent("c");
  deleted.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  deleted.metadata.deletion_timestamp = kDeletedAt;
  EXPECT_EQ(ContentLane(deleted), Lane::kUrgent);
}

// A pre-provisioned content may be ready before its VolumeSnapshot binds it.
TEST(ContentLaneTest, ReadyBoundContentWithoutFinalizerIsUrgent) {
  EXPECT_EQ(ContentLane(MakeReadyContent("c")), Lane::kUrgent);
}

TEST(ContentLaneTest, ReadyContentsWithFinalizerOrUnboundAreNormal) {
  VolumeSnapshotContent protected_content = MakeReadyContent("c");
  protected_content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  EXPECT_EQ(ContentLane(protected_content), Lane::kNormal);
  VolumeSnapshotContent unbound = MakeReadyContent("c");
  unbound.spec.volume_snapshot_ref.uid.clear();  // waits for its VolumeSnapshot's sync
  EXPECT_EQ(ContentLane(unbound), Lane::kNormal);
}

// --- cross-queue keys (§4.2) ---

TEST(SnapshotKeyOfTest, NamespaceSlashNameOfTheRef) {
  EXPECT_EQ(SnapshotKeyOf(MakeContent("c")), "default/snap-1");
  VolumeSnapshotContent unnamed = MakeContent("c");
  unnamed.spec.volume_snapshot_ref = {};
  EXPECT_EQ(SnapshotKeyOf(unnamed), std::nullopt);
}

TEST(BoundContentOfTest, TheStatusBoundContentName) {
  EXPECT_EQ(BoundContentOf(MakeReadySnapshot("default", "s", "c")), "c");
  EXPECT_EQ(BoundContentOf(MakeSnapshot("default", "s")), std::nullopt);
  EXPECT_EQ(BoundContentOf(MakeReadySnapshot("default", "s", "")), std::nullopt);
}

// --- The group kinds (§4.7) ---

TEST(GroupSnapshotUpdateTest, ResyncAlwaysCounts) {
  VolumeGroupSnapshot group = MakeGroupSnapshot("default", "g");
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(group, group));
}

TEST(GroupSnapshotUpdateTest, OwnStatusAndBoundFinalizerDoNotCount) {
  VolumeGroupSnapshot old_group = MakeGroupSnapshot("default", "g");
  VolumeGroupSnapshot bound = Next(old_group);
  bound.status.emplace();
  bound.status->bound_volume_group_snapshot_content_name = "gc";
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(old_group, bound));
  VolumeGroupSnapshot protected_group = Next(bound);
  protected_group.metadata.finalizers = {
      std::string(snapshot_controller::kGroupSnapshotBoundFinalizer)};
  protected_group.metadata.has_finalizers_field = true;
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(bound, protected_group));
  VolumeGroupSnapshot released = Next(protected_group);
  released.metadata.finalizers.clear();
  EXPECT_FALSE(ShouldSyncSnapshotUpdate(protected_group, released));
}

TEST(GroupSnapshotUpdateTest, DeletionSpecAndOthersFinalizersCount) {
  VolumeGroupSnapshot old_group = MakeGroupSnapshot("default", "g");
  VolumeGroupSnapshot deleting = Next(old_group);
  deleting.metadata.deletion_timestamp = kDeletedAt;
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_group, deleting));
  VolumeGroupSnapshot classed = Next(old_group);
  classed.spec.volume_group_snapshot_class_name = "other";
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_group, classed));
  VolumeGroupSnapshot kept = Next(old_group);
  kept.metadata.finalizers = {"example.com/backup"};
  kept.metadata.has_finalizers_field = true;
  EXPECT_TRUE(ShouldSyncSnapshotUpdate(old_group, kept));
}

TEST(GroupContentUpdateTest, OwnAnnotationAndFinalizerAdditionDoNotCount) {
  VolumeGroupSnapshotContent old_content = MakeGroupContent("gc");
  VolumeGroupSnapshotContent protected_content = Next(old_content);
  protected_content.metadata.finalizers = {std::string(snapshot::kGroupContentFinalizer)};
  protected_content.metadata.has_finalizers_field = true;
  EXPECT_FALSE(ShouldSyncContentUpdate(old_content, protected_content));
  VolumeGroupSnapshotContent marked = Next(protected_content);
  marked.metadata.annotations[snapshot::kGroupBeingDeletedAnnotation] = "yes";
  EXPECT_FALSE(ShouldSyncContentUpdate(protected_content, marked));
}

// The sidecar's status (the members are made from it) and its removal of
// the finalizer count.
TEST(GroupContentUpdateTest, SidecarsStatusAndFinalizerRemovalCount) {
  VolumeGroupSnapshotContent old_content = MakeGroupContent("gc");
  old_content.metadata.finalizers = {std::string(snapshot::kGroupContentFinalizer)};
  old_content.metadata.has_finalizers_field = true;
  VolumeGroupSnapshotContent created = Next(old_content);
  created.status.emplace();
  created.status->volume_group_snapshot_handle = "group-handle";
  EXPECT_TRUE(ShouldSyncContentUpdate(old_content, created));
  VolumeGroupSnapshotContent released = Next(created);
  released.metadata.finalizers.clear();
  EXPECT_TRUE(ShouldSyncContentUpdate(created, released));
}

TEST(GroupLaneTest, GroupSnapshotIsUrgentUntilReadyAndWhileDeleted) {
  EXPECT_EQ(SnapshotLane(MakeGroupSnapshot("default", "g")), Lane::kUrgent);
  VolumeGroupSnapshot ready = MakeReadyGroupSnapshot("default", "g", "gc");
  EXPECT_EQ(SnapshotLane(ready), Lane::kNormal);
  ready.metadata.deletion_timestamp = kDeletedAt;
  EXPECT_EQ(SnapshotLane(ready), Lane::kUrgent);
}

TEST(GroupLaneTest, GroupContentIsUrgentUntilReadyProtectedAndWhileDeleted) {
  VolumeGroupSnapshotContent content = MakeGroupContent("gc");
  content.status.emplace();
  content.status->ready_to_use = true;
  EXPECT_EQ(ContentLane(content), Lane::kUrgent);  // bound, no finalizer yet
  content.metadata.finalizers = {std::string(snapshot::kGroupContentFinalizer)};
  EXPECT_EQ(ContentLane(content), Lane::kNormal);
  content.status->ready_to_use = false;
  EXPECT_EQ(ContentLane(content), Lane::kUrgent);
  content.status->ready_to_use = true;
  content.metadata.deletion_timestamp = kDeletedAt;
  EXPECT_EQ(ContentLane(content), Lane::kUrgent);
}

TEST(GroupKeysTest, ContentNamesItsGroupSnapshotAndGroupSnapshotItsContent) {
  EXPECT_EQ(SnapshotKeyOf(MakeGroupContent("gc")), "default/group-1");
  VolumeGroupSnapshotContent unreferenced = MakeGroupContent("gc");
  unreferenced.spec.volume_group_snapshot_ref = {};
  EXPECT_EQ(SnapshotKeyOf(unreferenced), std::nullopt);
  EXPECT_EQ(BoundContentOf(MakeReadyGroupSnapshot("default", "g", "gc")), "gc");
  EXPECT_EQ(BoundContentOf(MakeGroupSnapshot("default", "g")), std::nullopt);
}

}  // namespace
}  // namespace snapshot_controller
