// Peer checks of the snapshot stack: upstream's snapshot-controller, a
// csi-snapshotter sidecar and the e2e mock CSI driver take a snapshot of a
// bound PVC and delete it again (docs/snapshots.md §3.4, §4.5). The sidecar is
// the test parameter: instantiated here with upstream's, so the fixture and
// the peers are known good before ours is put in its place.
#include <gtest/gtest.h>

#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

constexpr int64_t kMockVolumeBytes = 100LL << 30;  // the mock driver's default volume size

bool Ready(const kube::VolumeSnapshot& snapshot) {
  return snapshot.status && snapshot.status->ready_to_use.value_or(false);
}

TEST_P(SnapshotPairTest, SnapshotOfBoundPvcBecomesReadyThenDeletePolicyDeletesItEverywhere) {
  const std::string driver = "pair-delete.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));  // volume "4"
  CreateBoundPvc("default", "pvc-delete", "pv-delete", driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-delete", driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NO_FATAL_FAILURE(StartSidecarUnderTest());
  ASSERT_NO_FATAL_FAILURE(
      CreateVolumeSnapshot("default", "snap-delete", "pvc-delete", "class-delete"));

  auto snapshot = Await<kube::VolumeSnapshot>("default", "snap-delete", Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  EXPECT_TRUE(snapshot->status->creation_time.has_value()) << "no creationTime";
  EXPECT_EQ(snapshot->status->restore_size, "100Gi");
  ASSERT_TRUE(snapshot->status->bound_volume_snapshot_content_name.has_value());
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;
  EXPECT_EQ(content_name, "snapcontent-" + snapshot->metadata.uid);

  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->spec.driver, driver);
  EXPECT_EQ(content->spec.source.volume_handle, "4");
  EXPECT_EQ(content->spec.deletion_policy, "Delete");
  ASSERT_TRUE(content->status.has_value());
  EXPECT_EQ(content->status->ready_to_use, true);
  EXPECT_EQ(content->status->restore_size, kMockVolumeBytes);
  EXPECT_GT(content->status->creation_time.value_or(0), 0);
  ASSERT_TRUE(content->status->snapshot_handle.has_value());
  const std::string handle = *content->status->snapshot_handle;
  EXPECT_TRUE(DriverHasSnapshot(handle)) << "the driver does not list snapshot " << handle;
  EXPECT_GE(DriverCallsOk("CreateSnapshot"), 1);

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", "snap-delete").ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", "snap-delete"))
      << "VolumeSnapshot not released";
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name))
      << "VolumeSnapshotContent not deleted";
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 1);
  EXPECT_FALSE(DriverHasSnapshot(handle)) << "the driver still has snapshot " << handle;
}

TEST_P(SnapshotPairTest, RetainPolicyKeepsContentAndDriverSnapshotAfterSnapshotIsDeleted) {
  const std::string driver = "pair-retain.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));
  CreateBoundPvc("default", "pvc-retain", "pv-retain", driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-retain", driver, "Retain"));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NO_FATAL_FAILURE(StartSidecarUnderTest());
  ASSERT_NO_FATAL_FAILURE(
      CreateVolumeSnapshot("default", "snap-retain", "pvc-retain", "class-retain"));

  auto snapshot = Await<kube::VolumeSnapshot>("default", "snap-retain", Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", "snap-retain").ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", "snap-retain"))
      << "VolumeSnapshot not released";
  // The content outlives its snapshot; once the VolumeSnapshot is gone there
  // is nothing left to wait for, so it must still be there now.
  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << "Retain content was deleted: " << content.error().message;
  EXPECT_TRUE(content->metadata.deletion_timestamp.empty());
  ASSERT_TRUE(content->status && content->status->snapshot_handle);
  EXPECT_TRUE(DriverHasSnapshot(*content->status->snapshot_handle));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 0);
}

INSTANTIATE_TEST_SUITE_P(UpstreamPair, SnapshotPairTest, ::testing::Values(UpstreamSidecar()),
                         [](const ::testing::TestParamInfo<SidecarUnderTest>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace snapshot_it
