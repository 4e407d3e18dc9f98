// docs/snapshots.md §3.4 create step 8, "Error status", step 1 and §3.6: the
// status each outcome leaves, computed from the current one.
#include "snapshotter/content_status.h"

#include <gtest/gtest.h>

namespace snapshotter {
namespace {

const SnapshotFacts kFacts{.snapshot_handle = "snap-1",
                           .ready_to_use = true,
                           .creation_time = 1000,
                           .restore_size = 2048,
                           .group_snapshot_handle = "group-1"};

TEST(StatusWithSnapshot, NilStatusGetsEveryFact) {
  ContentStatus status = StatusWithSnapshot(std::nullopt, kFacts);
  ASSERT_TRUE(status);
  EXPECT_EQ(*status,
            (kube::VolumeSnapshotContentStatus{.snapshot_handle = "snap-1",
                                               .creation_time = 1000,
                                               .restore_size = 2048,
                                               .ready_to_use = true,
                                               .volume_group_snapshot_handle = "group-1"}));
}

TEST(StatusWithSnapshot, ZeroSizeAndNoGroupAreNotWritten) {
  ContentStatus status = StatusWithSnapshot(
      std::nullopt, {.snapshot_handle = "snap-1", .ready_to_use = false, .creation_time = 0});
  ASSERT_TRUE(status);
  EXPECT_FALSE(status->restore_size);
  EXPECT_FALSE(status->volume_group_snapshot_handle);
  EXPECT_EQ(status->creation_time, 0);
}

TEST(StatusWithSnapshot, ExistingValuesAreKeptOnlyReadinessFollowsTheDriver) {
  kube::VolumeSnapshotContentStatus current{.snapshot_handle = "old",
                                            .creation_time = 5,
                                            .restore_size = 7,
                                            .ready_to_use = false,
                                            .volume_group_snapshot_handle = "g"};
  ContentStatus status = StatusWithSnapshot(current, kFacts);
  ASSERT_TRUE(status);
  current.ready_to_use = true;
  EXPECT_EQ(*status, current);
}

TEST(StatusWithSnapshot, ErrorGoesOnlyWhenTurningReady) {
  kube::VolumeSnapshotContentStatus current{
      .ready_to_use = false, .error = kube::VolumeSnapshotError{.message = "timeout"}};
  ContentStatus unready = StatusWithSnapshot(current, {.snapshot_handle = "s"});
  ASSERT_TRUE(unready);
  EXPECT_TRUE(unready->error);
  ContentStatus ready = StatusWithSnapshot(current, kFacts);
  ASSERT_TRUE(ready);
  EXPECT_FALSE(ready->error);
}

TEST(StatusWithSnapshot, NothingNewIsNoChange) {
  ContentStatus once = StatusWithSnapshot(std::nullopt, kFacts);
  EXPECT_FALSE(StatusWithSnapshot(once, kFacts));
}

TEST(StatusWithError, SetsErrorAndUnreadyKeepingTheRest) {
  kube::VolumeSnapshotContentStatus status =
      StatusWithError(ContentStatus(kube::VolumeSnapshotContentStatus{.snapshot_handle = "s",
                                                                      .ready_to_use = true}),
                      "boom", "2023-11-14T22:13:20Z");
  EXPECT_EQ(
      status,
      (kube::VolumeSnapshotContentStatus{
          .snapshot_handle = "s",
          .ready_to_use = false,
          .error = kube::VolumeSnapshotError{.time = "2023-11-14T22:13:20Z", .message = "boom"}}));
  EXPECT_EQ(StatusWithError(ContentStatus(), "boom", "t").ready_to_use, false);
}

TEST(StatusWithoutSnapshot, ClearsWhatNamedTheSnapshotAndKeepsTheRest) {
  kube::VolumeSnapshotContentStatus current = *StatusWithSnapshot(std::nullopt, kFacts);
  current.error = kube::VolumeSnapshotError{.message = "old"};
  ContentStatus cleared = StatusWithoutSnapshot(current);
  ASSERT_TRUE(cleared);
  EXPECT_EQ(*cleared,
            (kube::VolumeSnapshotContentStatus{.error = kube::VolumeSnapshotError{.message = "old"},
                                               .volume_group_snapshot_handle = "group-1"}));
  EXPECT_FALSE(StatusWithoutSnapshot(cleared));
  EXPECT_FALSE(StatusWithoutSnapshot(ContentStatus()));
}

}  // namespace
}  // namespace snapshotter
