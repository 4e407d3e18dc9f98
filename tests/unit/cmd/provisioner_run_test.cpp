// docs/provisioner.md §2.3 and §9.9: the csi-provisioner's feature gates,
// driven through Run() with arguments and captured logs. HonorPVReclaimPolicy
// went GA in v5.3.0 and was removed in v6.2.0 (#1476), so upstream's v6.4.0
// exits 255 on a deployment that still names it; ours accepts it as the GA
// gate it was, locked to its behaviour.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "provisioner/command/run.h"
#include "tests/unit/cmd/run_test_fixture.h"

namespace csiprovisioner {
namespace {

using ::testing::SizeIs;

class ProvisionerRunTest : public cmdtest::BinaryRunTest<csiprovisioner::Run> {
 protected:
  ProvisionerRunTest() : BinaryRunTest("csi-provisioner", 0) {}
};

TEST_F(ProvisionerRunTest, RemovedHonorPvReclaimPolicyGateIsAcceptedWithAWarning) {
  EXPECT_EQ(RunWith({"--feature-gates=HonorPVReclaimPolicy=true", "--version"}), 0);
  EXPECT_THAT(logs_.Grep("\"Warning: setting GA feature gate. It will be removed in a future "
                         "release.\" featureGate=\"HonorPVReclaimPolicy\""),
              SizeIs(1));
}

TEST_F(ProvisionerRunTest, HonorPvReclaimPolicyCannotBeTurnedOff) {
  ExpectRefusedFeatureGateIsFatal(
      "HonorPVReclaimPolicy=false",
      "cannot set feature gate HonorPVReclaimPolicy to false, feature is locked to true");
}

TEST_F(ProvisionerRunTest, UnknownFeatureGateIsFatal) {
  ExpectRefusedFeatureGateIsFatal("Warp=true", "unrecognized feature gate: Warp");
}

}  // namespace
}  // namespace csiprovisioner
