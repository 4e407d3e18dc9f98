// Our csi-provisioner from its image root (chroot, user 65532), against the
// real control plane with kube-controller-manager and the e2e mock driver: a
// claim gets its volume and a bound PV, and the deleted claim's volume goes.
// The same for csi-sidecars --controllers=provisioner from its own image root.
#include <gtest/gtest.h>
#include <sched.h>

#include <set>

#include "tests/integration/image/image_root.h"
#include "tests/integration/image/process_facts.h"
#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/csi_sidecars.h"

namespace image_it {
namespace {

// The image a test runs: csi-provisioner's, or csi-sidecars' as the provisioner.
struct ImageUnderTest {
  std::string name;
  std::string binary;
  bool csi_sidecars;
};

class ProvisionerImageTest : public provisioner_it::ProvisionerTest,
                             public ::testing::WithParamInterface<ImageUnderTest> {
 protected:
  static void SetUpTestSuite() {
    ProvisionerTest::SetUpTestSuite();
    if (plane_) OpenToImageUser(plane_->work_dir());  // kubeconfigs, CA
  }
};

TEST_P(ProvisionerImageTest, ProvisionerFromItsImageRootProvisionsAndDeletesAVolume) {
  const ImageRoot* image = ImageRoot::Get(GetParam().binary);
  ASSERT_NE(image, nullptr);
  std::string command = image->Launcher({plane_->work_dir()});
  if (GetParam().csi_sidecars) {
    base::Result<std::string> as_provisioner = testsupport::CsiSidecarsAs("provisioner", command);
    ASSERT_TRUE(as_provisioner.ok()) << as_provisioner.error().message;
    command = *as_provisioner;
  }
  // Both images run on the suite's control plane: names of their own.
  const Names names = OwnNames("image", GetParam().name);
  const std::string& driver = names.driver;
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  OpenToImageUser(plane_->work_dir());  // the driver's socket
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = names.storage_class, .provisioner = driver}));
  auto* provisioner = StartProvisioner(command);
  ASSERT_NE(provisioner, nullptr);
  nlohmann::json claim = CreateClaim({.name = names.claim,
                                      .storage_class = names.storage_class,
                                      .access_modes = {"ReadWriteOnce"},
                                      .size = "100Mi"});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = provisioner_it::PvNameOf(claim);

  nlohmann::json bound = AwaitBound("default", names.claim);
  ASSERT_EQ(provisioner_it::PhaseOf(bound), "Bound") << bound.dump(2) << "\n"
                                                     << provisioner->LogTail(30);
  EXPECT_EQ(bound["spec"]["volumeName"], pv_name);
  EXPECT_GE(DriverCallsOk("CreateVolume"), 1);
  DeleteClaim("default", names.claim);
  EXPECT_TRUE(AwaitPvGone(pv_name)) << provisioner->LogTail(30);
  EXPECT_GE(DriverCallsOk("DeleteVolume"), 1);
  EXPECT_EQ(RealUserOf(provisioner->pid()), kImageUser);
  // Unprivileged, every thread runs as SCHED_BATCH (docs/design.md §5).
  EXPECT_EQ(ThreadPoliciesOf(provisioner->pid()), std::set<int>{SCHED_BATCH});
}

INSTANTIATE_TEST_SUITE_P(Images, ProvisionerImageTest,
                         ::testing::Values(ImageUnderTest{"CsiProvisioner", PROVISIONER_BIN, false},
                                           ImageUnderTest{"CsiSidecars", CSI_SIDECARS_BIN, true}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace image_it
