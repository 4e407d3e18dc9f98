// docs/snapshots.md §3.3 (isDriverMatch, the update filter) and §9.3 (no sync on
// the sidecar's own writes), one rule per test; the lanes (§9.5) are
// tests/unit/snapshot/content_lane_test.cpp.
#include "snapshotter/content_event_filters.h"

#include <gtest/gtest.h>

#include "content_controller_fakes.h"
#include "snapshot/names.h"

namespace snapshotter {
namespace {

using kube::VolumeSnapshotContent;
using testing::kSnapshotDriver;
using testing::MakeClass;
using testing::MakeContent;

TEST(IsDriverMatchTest, DynamicContentOfTheDriverMatches) {
  EXPECT_TRUE(IsDriverMatch(MakeContent("c"), kSnapshotDriver, nullptr));
}

TEST(IsDriverMatchTest, ImportedContentOfTheDriverMatches) {
  VolumeSnapshotContent content = MakeContent("c");
  content.spec.source.volume_handle.reset();
  content.spec.source.snapshot_handle = "snap-1";
  EXPECT_TRUE(IsDriverMatch(content, kSnapshotDriver, nullptr));
}

TEST(IsDriverMatchTest, ContentWithoutSourceDoesNotMatch) {
  VolumeSnapshotContent content = MakeContent("c");
  content.spec.source.volume_handle.reset();
  EXPECT_FALSE(IsDriverMatch(content, kSnapshotDriver, nullptr));
}

TEST(IsDriverMatchTest, ContentOfAnotherDriverDoesNotMatch) {
  EXPECT_FALSE(IsDriverMatch(MakeContent("c", "other.csi.example.com"), kSnapshotDriver, nullptr));
}

TEST(IsDriverMatchTest, ClassOfAnotherDriverDisqualifies) {
  kube::VolumeSnapshotClass other = MakeClass("class", "other.csi.example.com");
  EXPECT_FALSE(IsDriverMatch(MakeContent("c"), kSnapshotDriver, &other));
}

TEST(IsDriverMatchTest, ClassOfTheDriverMatches) {
  kube::VolumeSnapshotClass ours = MakeClass("class", std::string(kSnapshotDriver));
  EXPECT_TRUE(IsDriverMatch(MakeContent("c"), kSnapshotDriver, &ours));
}

class UpdateFilterTest : public ::testing::Test {
 protected:
  UpdateFilterTest() : old_(MakeContent("c")), new_(old_) {
    old_.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
    old_.metadata.has_finalizers_field = true;
    new_ = old_;
    new_.metadata.resource_version = "2";
  }
  bool Enqueued() const { return ShouldEnqueueContentUpdate(old_, new_); }

  VolumeSnapshotContent old_;
  VolumeSnapshotContent new_;
};

TEST_F(UpdateFilterTest, ResyncAlwaysCounts) {
  new_.metadata.resource_version = old_.metadata.resource_version;
  EXPECT_TRUE(Enqueued());
}

TEST_F(UpdateFilterTest, ResourceVersionAloneDoesNotCount) { EXPECT_FALSE(Enqueued()); }

TEST_F(UpdateFilterTest, StatusWriteDoesNotCount) {
  new_.status.emplace();
  new_.status->snapshot_handle = "snap-1";
  new_.status->ready_to_use = false;
  new_.status->creation_time = 1700000000000000000;
  EXPECT_FALSE(Enqueued());
}

// Upstream's #1392 enqueues this; here deletion is decided after every
// create answer within the sync (§9.1), so our own status write stays quiet.
TEST_F(UpdateFilterTest, TurningReadyDoesNotCount) {
  old_.status.emplace();
  old_.status->ready_to_use = false;
  new_.status = old_.status;
  new_.status->ready_to_use = true;
  EXPECT_FALSE(Enqueued());
}

TEST_F(UpdateFilterTest, BeingCreatedAnnotationAddedDoesNotCount) {
  new_.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  EXPECT_FALSE(Enqueued());
}

TEST_F(UpdateFilterTest, BeingCreatedAnnotationRemovedDoesNotCount) {
  old_.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  new_.metadata.annotations.erase(snapshot::kBeingCreatedAnnotation);
  EXPECT_FALSE(Enqueued());
}

TEST_F(UpdateFilterTest, OurFinalizerRemovedDoesNotCount) {
  new_.metadata.finalizers.clear();
  new_.metadata.has_finalizers_field = false;
  EXPECT_FALSE(Enqueued());
}

// As upstream: no decision of the sync reads finalizers.
TEST_F(UpdateFilterTest, FinalizerAddedByOthersDoesNotCount) {
  new_.metadata.finalizers.push_back("example.com/other");
  EXPECT_FALSE(Enqueued());
}

TEST_F(UpdateFilterTest, DeletionTimestampCounts) {
  new_.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_TRUE(Enqueued());
}

TEST_F(UpdateFilterTest, BeingDeletedAnnotationCounts) {
  new_.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  EXPECT_TRUE(Enqueued());
}

TEST_F(UpdateFilterTest, OtherAnnotationCounts) {
  new_.metadata.annotations["snapshot.storage.kubernetes.io/deletion-secret-name"] = "s";
  EXPECT_TRUE(Enqueued());
}

TEST_F(UpdateFilterTest, LabelCounts) {
  new_.metadata.labels["snapshot.storage.kubernetes.io/managed-by"] = "node-1";
  EXPECT_TRUE(Enqueued());
}

TEST_F(UpdateFilterTest, SpecChangeCounts) {
  new_.spec.volume_snapshot_ref.uid = "uid-2";
  EXPECT_TRUE(Enqueued());
}

TEST_F(UpdateFilterTest, OwnWriteTogetherWithADeletionCounts) {
  new_.status.emplace();
  new_.status->ready_to_use = true;
  new_.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  new_.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_TRUE(Enqueued());
}

}  // namespace
}  // namespace snapshotter
