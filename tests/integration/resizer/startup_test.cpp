// Start-up exit codes upstream's resizer and ours share (docs/resizer.md
// §2): Go's flag rules, the feature gate v2.3.0 removed, the HTTP flag
// conflict, a driver without a controller service; the discovery of
// VolumeAttributesClasses when their gate is not given.
#include <gtest/gtest.h>

#include "base/file.h"
#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/cluster_polls.h"

namespace resizer_it {
namespace {

class StartupTest : public ResizerTest {};

TEST_P(StartupTest, UnknownFlagExits2) { EXPECT_EQ(ExitCodeOf({"--no-such-flag"}), 2); }

TEST_P(StartupTest, RemovedRecoverVolumeExpansionFailureGateExits1) {
  EXPECT_EQ(ExitCodeOf({"--feature-gates=RecoverVolumeExpansionFailure=true"}), 1);
}

TEST_P(StartupTest, BothHttpAddressesExit1) {
  EXPECT_EQ(ExitCodeOf({"--http-endpoint=:0", "--metrics-address=:0"}), 1);
}

// §2.3 step 6: without CONTROLLER_SERVICE the resizer cannot be made, even
// for a driver that could expand on the node.
TEST_P(StartupTest, DriverWithoutControllerServiceExits1) {
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriver(DriverFor("no-controller"), {"--no-controller-service"}));
  testsupport::Process* resizer = StartResizer();
  ASSERT_NE(resizer, nullptr);
  ASSERT_TRUE(testsupport::PollUntil([&] { return !resizer->IsRunning(); }, kResizeAwait))
      << "still running";
  EXPECT_EQ(resizer->exit_status(), 1);
}

// §2.3 step 2: the VolumeAttributesClass gate not given, the resizer asks
// the API server's discovery whether storage.k8s.io/v1 serves the kind
// (this one does), says so, and goes on to run its modify controller.
TEST_P(StartupTest, GateNotGivenAsksDiscoveryForVolumeAttributesClasses) {
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriver(DriverFor("discovery"), {"--capabilities=EXPAND_VOLUME,MODIFY_VOLUME"}));
  testsupport::Process* resizer = StartResizer();
  ASSERT_NE(resizer, nullptr);
  EXPECT_TRUE(testsupport::PollUntil(
      [&] {
        auto log = base::ReadFile(resizer->log_file());
        return log.ok() &&
               log->find("VolumeAttributesClass v1 API is available") != std::string::npos;
      },
      kResizeAwait))
      << "no discovery line in " << resizer->log_file();
}

INSTANTIATE_RESIZER_PAIRS(StartupTest);

}  // namespace
}  // namespace resizer_it
