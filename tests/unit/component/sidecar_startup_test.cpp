// The CSI sidecar start-up against a driver served in-process: the steps'
// order, what `serve` gets, and how a failed step ends start-up.
#include "component/sidecar_startup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "tests/unit/csi/fake_driver.h"

namespace component {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;

namespace v1 = ::csi::v1;

class SidecarStartupTest : public ::testing::Test {
 protected:
  SidecarStartupTest() {
    driver_.get_plugin_info = [](auto*, const auto&, v1::GetPluginInfoResponse* r) {
      r->set_name("fake.csi.example.com");
      return grpc::Status::OK;
    };
    driver_.get_plugin_capabilities = [this](auto*, const auto&, auto*) {
      Record("capabilities");
      return grpc::Status::OK;
    };
    driver_.Start();
    startup_.csi_address = driver_.socket_path();
    startup_.probe_timeout = std::chrono::seconds(1);
    env_.handle_signals = false;
    env_.on_connection_loss = [] { ADD_FAILURE() << "connection loss reported"; };
  }

  void Record(std::string step) {
    std::lock_guard lock(mu_);
    steps_.push_back(std::move(step));
  }
  // A `serve` that records that it ran, for whom, and returns `code`.
  std::function<int(const CsiDriver&)> Serve(int code) {
    return [this, code](const CsiDriver& driver) {
      Record("serve " + driver.name);
      return code;
    };
  }
  std::vector<std::string> steps() {
    std::lock_guard lock(mu_);
    return steps_;
  }

  csi::testing::LogCapture logs_;
  csi::testing::FakeDriver driver_;
  SidecarStartup startup_;
  RunEnvironment env_;
  std::mutex mu_;  // guards steps_: the driver's scripts run on gRPC threads
  std::vector<std::string> steps_;
};

TEST_F(SidecarStartupTest, ServeGetsTheNamedDriverAfterTheHookAndTheCapabilities) {
  startup_.on_driver_named = [this](const std::string& name) {
    Record("named " + name);
    return true;
  };
  int code = RunSidecar(startup_, env_, Serve(7));
  EXPECT_EQ(code, 7);
  EXPECT_THAT(steps(), ElementsAre("named fake.csi.example.com", "capabilities",
                                   "serve fake.csi.example.com"));
}

TEST_F(SidecarStartupTest, AFailedHookEndsStartUpWithExitOne) {
  startup_.on_driver_named = [](const std::string&) { return false; };
  int code = RunSidecar(startup_, env_, Serve(0));
  EXPECT_EQ(code, 1);
  EXPECT_THAT(steps(), IsEmpty());
}

TEST_F(SidecarStartupTest, AFailedCapabilitiesCallIsLoggedAndExitsOne) {
  driver_.get_plugin_capabilities = [](auto*, const auto&, auto*) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "broken");
  };
  int code = RunSidecar(startup_, env_, Serve(0));
  EXPECT_EQ(code, 1);
  EXPECT_THAT(steps(), IsEmpty());
  EXPECT_THAT(logs_.Grep("\"Failed to get the CSI driver's capabilities\""), SizeIs(1));
}

TEST_F(SidecarStartupTest, AStopRequestedBeforeStartUpEndsItWithExitZero) {
  env_.stop.request_stop();
  int code = RunSidecar(startup_, env_, Serve(1));
  EXPECT_EQ(code, 0);
  EXPECT_THAT(steps(), IsEmpty());
  EXPECT_THAT(logs_.Grep("Shutdown requested during startup"), SizeIs(1));
}

}  // namespace
}  // namespace component
