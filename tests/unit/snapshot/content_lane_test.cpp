// docs/snapshots.md §9.5: a content's readiness and the lane its sync takes,
// for both content kinds (the sidecar's rule, which the controller builds on).
#include "snapshot/content_lane.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/snapshot_objects.h"

namespace snapshot {
namespace {

using kube::VolumeGroupSnapshotContent;
using kube::VolumeSnapshotContent;
using kube::WorkQueue;
using testsupport::MakeContent;
using testsupport::MakeGroupContent;
using testsupport::MakeReadyContent;

constexpr std::string_view kDeleted = "2023-11-14T22:00:00Z";

TEST(IsReady, OnlyAnExplicitTrue) {
  VolumeSnapshotContent content = MakeContent("content-1");
  EXPECT_FALSE(IsReady(content));
  content.status = kube::VolumeSnapshotContentStatus{};
  EXPECT_FALSE(IsReady(content));
  content.status->ready_to_use = true;
  EXPECT_TRUE(IsReady(content));
}

TEST(ContentLaneTest, ContentWithoutStatusIsUrgent) {
  EXPECT_EQ(ContentLane(MakeContent("c")), WorkQueue::Lane::kUrgent);
}

TEST(ContentLaneTest, UnreadyContentIsUrgent) {
  VolumeSnapshotContent content = MakeReadyContent("c");
  content.status->ready_to_use = false;
  EXPECT_EQ(ContentLane(content), WorkQueue::Lane::kUrgent);
}

TEST(ContentLaneTest, ReadyContentIsNormal) {
  EXPECT_EQ(ContentLane(MakeReadyContent("c")), WorkQueue::Lane::kNormal);
}

TEST(ContentLaneTest, ReadyContentBeingDeletedIsUrgent) {
  VolumeSnapshotContent content = MakeReadyContent("c");
  content.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_EQ(ContentLane(content), WorkQueue::Lane::kUrgent);
}

TEST(GroupContentLane, UrgentUntilReadyThenNormalUnlessDeleted) {
  EXPECT_EQ(ContentLane(MakeGroupContent("c")), WorkQueue::Lane::kUrgent);
  VolumeGroupSnapshotContent ready = MakeGroupContent("c");
  ready.status = kube::VolumeGroupSnapshotContentStatus{.ready_to_use = true};
  EXPECT_EQ(ContentLane(ready), WorkQueue::Lane::kNormal);
  ready.metadata.deletion_timestamp = std::string(kDeleted);
  EXPECT_EQ(ContentLane(ready), WorkQueue::Lane::kUrgent);
}

}  // namespace
}  // namespace snapshot
