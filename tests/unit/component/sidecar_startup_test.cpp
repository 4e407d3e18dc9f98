// The CSI sidecar start-up against a driver served in-process: the steps'
// order, what `serve` gets, and how a failed step ends start-up.
#include "component/sidecar_startup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <optional>
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
    driver_.get_plugin_info = [this](auto*, const auto&, v1::GetPluginInfoResponse* r) {
      Record("name");
      r->set_name("fake.csi.example.com");
      return grpc::Status::OK;
    };
    driver_.probe = [this](auto*, const auto&, auto*) {
      Record("probe");
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

  csi::testing::LogCapture logs_{2};  // V(2): the driver's name
  csi::testing::FakeDriver driver_;
  SidecarStartup startup_;
  RunEnvironment env_;
  std::mutex mu_;  // guards steps_: the driver's scripts run on gRPC threads
  std::vector<std::string> steps_;
};

// docs/attacher.md §1.4: probe, name, hook, capabilities, serve.
TEST_F(SidecarStartupTest, ServeGetsTheNamedDriverAfterTheHookAndTheCapabilities) {
  startup_.on_driver_named = [this](const std::string& name) -> std::optional<int> {
    Record("named " + name);
    return std::nullopt;
  };
  int code = RunSidecar(startup_, env_, Serve(7));
  EXPECT_EQ(code, 7);
  EXPECT_THAT(steps(), ElementsAre("probe", "name", "named fake.csi.example.com", "capabilities",
                                   "serve fake.csi.example.com"));
  EXPECT_THAT(logs_.Grep("\"CSI driver name\" driver=\"fake.csi.example.com\""), SizeIs(1));
}

// docs/snapshots.md §3.2 steps 3-6: the name (and the hook that starts the
// HTTP server) before the probe, and only the capabilities the sidecar reads.
TEST_F(SidecarStartupTest, NameBeforeProbeRunsTheHookBeforeProbing) {
  startup_.name_before_probe = true;
  startup_.on_driver_named = [this](const std::string& name) -> std::optional<int> {
    Record("named " + name);
    return std::nullopt;
  };
  startup_.read_capabilities =
      [this](csi::Connection& connection,
             std::chrono::nanoseconds timeout) -> base::Result<csi::Capabilities> {
    Record("own capabilities");
    auto rpcs = csi::GetControllerRpcs(connection, timeout);
    if (!rpcs.ok()) return rpcs.error();
    return csi::Capabilities{.controller_rpcs = *rpcs};
  };
  driver_.controller_get_capabilities = [](auto*, const auto&,
                                           v1::ControllerGetCapabilitiesResponse* r) {
    r->add_capabilities()->mutable_rpc()->set_type(
        v1::ControllerServiceCapability::RPC::CREATE_DELETE_SNAPSHOT);
    return grpc::Status::OK;
  };
  std::optional<csi::Capabilities> served;
  int code = RunSidecar(startup_, env_, [&](const CsiDriver& driver) {
    served = driver.capabilities;
    return 3;
  });
  EXPECT_EQ(code, 3);
  EXPECT_THAT(steps(),
              ElementsAre("name", "named fake.csi.example.com", "probe", "own capabilities"));
  ASSERT_TRUE(served.has_value());
  EXPECT_TRUE(served->Has(v1::ControllerServiceCapability::RPC::CREATE_DELETE_SNAPSHOT));
}

TEST_F(SidecarStartupTest, AHookExitCodeEndsStartUpWithIt) {
  startup_.on_driver_named = [this](const std::string&) -> std::optional<int> {
    Record("hook");
    return 255;
  };
  int code = RunSidecar(startup_, env_, Serve(0));
  EXPECT_EQ(code, 255);
  EXPECT_THAT(steps(), ElementsAre("probe", "name", "hook"));
}

TEST_F(SidecarStartupTest, AHookExitCodeBeforeProbingSkipsTheProbe) {
  startup_.name_before_probe = true;
  startup_.on_driver_named = [](const std::string&) -> std::optional<int> { return 1; };
  int code = RunSidecar(startup_, env_, Serve(0));
  EXPECT_EQ(code, 1);
  EXPECT_THAT(steps(), ElementsAre("name"));
}

// A sidecar words the failures and the name its own way.
TEST_F(SidecarStartupTest, WordingReplacesTheAttachersLogLines) {
  std::vector<std::string> said;
  startup_.wording.failure = [&](StartupStep step, const base::Error& error) {
    said.push_back((step == StartupStep::kProbe ? "probe: " : "other: ") + error.message);
  };
  startup_.wording.driver_named = [&](const std::string& name) { said.push_back("name " + name); };
  startup_.name_before_probe = true;
  driver_.probe = [](auto*, const auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "no probe");
  };
  int code = RunSidecar(startup_, env_, Serve(0));
  EXPECT_EQ(code, 1);
  ASSERT_THAT(said, SizeIs(2));
  EXPECT_EQ(said[0], "name fake.csi.example.com");
  EXPECT_THAT(said[1], ::testing::StartsWith("probe: CSI driver probe failed"));
  EXPECT_THAT(logs_.Grep("Failed to probe"), IsEmpty());
  EXPECT_THAT(logs_.Grep("\"CSI driver name\""), IsEmpty());
}

TEST_F(SidecarStartupTest, AFailedCapabilitiesCallIsLoggedAndExitsOne) {
  driver_.get_plugin_capabilities = [](auto*, const auto&, auto*) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "broken");
  };
  int code = RunSidecar(startup_, env_, Serve(0));
  EXPECT_EQ(code, 1);
  EXPECT_THAT(steps(), ElementsAre("probe", "name"));
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
