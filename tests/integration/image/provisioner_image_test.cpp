// Our csi-provisioner from its image root (chroot, user 65532), against the
// real control plane with kube-controller-manager and the e2e mock driver: a
// claim gets its volume and a bound PV, and the deleted claim's volume goes.
#include <gtest/gtest.h>
#include <sched.h>

#include <set>

#include "tests/integration/image/image_root.h"
#include "tests/integration/image/process_facts.h"
#include "tests/integration/provisioner/provisioner_fixture.h"

namespace image_it {
namespace {

class ProvisionerImageTest : public provisioner_it::ProvisionerTest {
 protected:
  static void SetUpTestSuite() {
    ProvisionerTest::SetUpTestSuite();
    if (plane_) OpenToImageUser(plane_->work_dir());  // kubeconfigs, CA
  }
};

TEST_F(ProvisionerImageTest, ProvisionerFromItsImageRootProvisionsAndDeletesAVolume) {
  const ImageRoot* image = ImageRoot::Get(PROVISIONER_BIN);
  ASSERT_NE(image, nullptr);
  const std::string driver = "provision-image.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  OpenToImageUser(plane_->work_dir());  // the driver's socket
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = "class-image", .provisioner = driver}));
  auto* provisioner = StartProvisioner(image->Launcher({plane_->work_dir()}));
  ASSERT_NE(provisioner, nullptr);
  nlohmann::json claim = CreateClaim({.name = "claim-image",
                                      .storage_class = "class-image",
                                      .access_modes = {"ReadWriteOnce"},
                                      .size = "100Mi"});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = provisioner_it::PvNameOf(claim);

  nlohmann::json bound = AwaitBound("default", "claim-image");
  ASSERT_EQ(provisioner_it::PhaseOf(bound), "Bound") << bound.dump(2) << "\n"
                                                     << provisioner->LogTail(30);
  EXPECT_EQ(bound["spec"]["volumeName"], pv_name);
  EXPECT_GE(DriverCallsOk("CreateVolume"), 1);
  DeleteClaim("default", "claim-image");
  EXPECT_TRUE(AwaitPvGone(pv_name)) << provisioner->LogTail(30);
  EXPECT_GE(DriverCallsOk("DeleteVolume"), 1);
  EXPECT_EQ(RealUserOf(provisioner->pid()), kImageUser);
  // Unprivileged, every thread runs as SCHED_BATCH (docs/design.md §5).
  EXPECT_EQ(ThreadPoliciesOf(provisioner->pid()), std::set<int>{SCHED_BATCH});
}

}  // namespace
}  // namespace image_it
