// The snapshot-controller and the csi-snapshotter, each from its image root
// (chroot, user 65532), against the real control plane and the e2e mock
// driver: a real snapshot that becomes readyToUse.
#include <gtest/gtest.h>
#include <sched.h>

#include <set>

#include "tests/integration/image/image_root.h"
#include "tests/integration/image/process_facts.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace image_it {
namespace {

class SnapshotImageTest : public snapshot_it::SnapshotTest {
 protected:
  static void SetUpTestSuite() {
    SnapshotTest::SetUpTestSuite();
    if (plane_) OpenToImageUser(plane_->work_dir());  // kubeconfigs, CA
  }
};

TEST_F(SnapshotImageTest, ControllerAndSidecarFromTheirImageRootsMakeASnapshotReady) {
  const ImageRoot* controller_image = ImageRoot::Get(SNAPSHOT_CONTROLLER_BIN);
  ASSERT_NE(controller_image, nullptr);
  const ImageRoot* sidecar_image = ImageRoot::Get(SNAPSHOTTER_BIN);
  ASSERT_NE(sidecar_image, nullptr);
  const std::string driver = "mock-image.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));  // volume "4"
  OpenToImageUser(plane_->work_dir());                  // the driver's socket
  CreateBoundPvc("default", "pvc-image", "pv-image", driver, "4");
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-image", driver, "Delete"));
  ASSERT_FALSE(HasFailure()) << "setup failed";
  auto* controller = StartController(controller_image->Launcher({plane_->work_dir()}));
  ASSERT_NE(controller, nullptr);
  auto* sidecar = StartSidecar(sidecar_image->Launcher({plane_->work_dir()}));
  ASSERT_NE(sidecar, nullptr);
  CreateVolumeSnapshot("default", "snap-image", "pvc-image", "class-image");

  auto snapshot = Await<kube::VolumeSnapshot>("default", "snap-image", snapshot_it::Ready);
  ASSERT_TRUE(snapshot && snapshot_it::Ready(*snapshot))
      << "VolumeSnapshot never became readyToUse\n"
      << controller->LogTail(30) << "\n"
      << sidecar->LogTail(30);
  ASSERT_TRUE(snapshot->status->bound_volume_snapshot_content_name.has_value());
  auto content = admin_->Get<kube::VolumeSnapshotContent>(
      "", *snapshot->status->bound_volume_snapshot_content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  ASSERT_TRUE(content->status && content->status->snapshot_handle);
  EXPECT_TRUE(DriverHasSnapshot(*content->status->snapshot_handle));
  EXPECT_EQ(RealUserOf(controller->pid()), kImageUser);
  EXPECT_EQ(RealUserOf(sidecar->pid()), kImageUser);
  // Unprivileged, every thread of both runs as SCHED_BATCH (docs/design.md §5).
  EXPECT_EQ(ThreadPoliciesOf(controller->pid()), std::set<int>{SCHED_BATCH});
  EXPECT_EQ(ThreadPoliciesOf(sidecar->pid()), std::set<int>{SCHED_BATCH});
}

}  // namespace
}  // namespace image_it
