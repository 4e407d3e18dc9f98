// docs/snapshots.md §3.1 and §3.2: the snapshotter's start-up order, exit
// codes and messages (upstream v8.7.0's cmd/csi-snapshotter), and §9.9
// (positional arguments, --snapshot-name-uuid-length), driven through Run()
// with arguments, captured streams and logs, an in-process CSI driver and,
// where the API server must answer, a scripted one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>

#include "metrics/http_server.h"
#include "snapshotter/command/run.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"
#include "tests/support/scripted_http_server.h"
#include "tests/unit/cmd/run_test_fixture.h"
#include "tests/unit/csi/fake_driver.h"

namespace csisnapshotter {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using ::testing::StartsWith;

namespace v1 = ::csi::v1;

// A kubeconfig for `server`; by default an address nothing listens on: the
// sidecar's API calls fail and are retried, which is all most tests need.
std::string Kubeconfig(const std::string& server = "https://127.0.0.1:1") {
  return "apiVersion: v1\nkind: Config\ncurrent-context: main\n"
         "clusters:\n- name: c\n  cluster:\n    server: " +
         server +
         "\n"
         "users:\n- name: u\n  user:\n    token: t\n"
         "contexts:\n- name: main\n  context:\n    cluster: c\n    user: u\n";
}

// Sets an environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

class SnapshotterRunTest : public cmdtest::BinaryRunTest<csisnapshotter::Run> {
 protected:
  // V(2): upstream's start-up lines.
  SnapshotterRunTest() : BinaryRunTest("csi-snapshotter", 2) {
    kubeconfig_ = WriteKubeconfig("kubeconfig", Kubeconfig());
  }

  std::string WriteKubeconfig(const std::string& file, const std::string& content) {
    std::string path = (dir_.path() / file).string();
    std::ofstream(path) << content;
    return path;
  }

  std::string kubeconfig_;
  ScopedEnv no_node_name_{"NODE_NAME", nullptr};
};

TEST_F(SnapshotterRunTest, HelpListsFlagsAndExitsZero) {
  EXPECT_EQ(RunWith({"--help"}), 0);
  EXPECT_THAT(err_.str(),
              AllOf(HasSubstr("Usage of csi-snapshotter:"), HasSubstr("-snapshot-name-prefix"),
                    HasSubstr("-node-deployment"), HasSubstr("-feature-gates")));
}

TEST_F(SnapshotterRunTest, VersionPrintsProgramAndVersion) {
  ExpectVersionPrintsProgramAndVersion();
}

// §9.9: upstream silently ignores everything after `false`.
TEST_F(SnapshotterRunTest, PositionalArgumentIsAnErrorNamingTheFlagForm) {
  EXPECT_EQ(RunWith({"-leader-election", "false", "--timeout=1s"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("unexpected positional argument \"false\""));
  EXPECT_THAT(err_.str(), HasSubstr("--leader-election=false"));
}

TEST_F(SnapshotterRunTest, RemovedGroupSnapshotFlagExitsTwo) {
  EXPECT_EQ(RunWith({"--enable-volume-group-snapshots"}), 2);
  EXPECT_THAT(err_.str(),
              HasSubstr("flag provided but not defined: -enable-volume-group-snapshots"));
}

TEST_F(SnapshotterRunTest, InvalidLoggingConfigurationExitsOne) {
  ExpectInvalidLoggingConfigurationExitsOne();
}

TEST_F(SnapshotterRunTest, UnknownFeatureGateIsFatal) {
  ExpectRefusedFeatureGateIsFatal("Warp=true", "unrecognized feature gate: Warp");
}

TEST_F(SnapshotterRunTest, LockedFeatureGateIsFatal) {
  ExpectRefusedFeatureGateIsFatal(
      "SeparateCacheWatchRPC=true",
      "cannot set feature gate SeparateCacheWatchRPC to true, feature is locked to false");
}

TEST_F(SnapshotterRunTest, SnapshotterAndApiserverGatesAreAccepted) {
  EXPECT_EQ(RunWith({"--feature-gates=CSIVolumeGroupSnapshot=false,ReleaseLeaderElectionOnExit="
                     "true,AllBeta=false,WatchListCompression=false",
                     "--version"}),
            0);
}

TEST_F(SnapshotterRunTest, NodeDeploymentExcludesLeaderElection) {
  // Checked before the kubeconfig, which does not exist.
  EXPECT_EQ(RunWith({"--node-deployment", "--leader-election", "--kubeconfig=/nonexistent"}), 1);
  EXPECT_THAT(logs_.Grep("\"Leader election cannot happen when node-deployment is set to true\""),
              SizeIs(1));
  EXPECT_THAT(logs_.Grep("\"Version\" version="), SizeIs(1));
}

TEST_F(SnapshotterRunTest, EmptySnapshotNamePrefixExitsOne) {
  EXPECT_EQ(RunWith({"--snapshot-name-prefix=", "--kubeconfig=/nonexistent"}), 1);
  EXPECT_THAT(logs_.Grep("\"Snapshot name prefix cannot be of length 0\""), SizeIs(1));
}

// §9.9: upstream panics at the first snapshot with such a length.
TEST_F(SnapshotterRunTest, SnapshotNameUuidLengthOutOfRangeExitsOne) {
  EXPECT_EQ(RunWith({"--snapshot-name-uuid-length=33", "--kubeconfig=/nonexistent"}), 1);
  EXPECT_THAT(logs_.Grep("Option -snapshot-name-uuid-length must be between -1 and 32, not 33"),
              SizeIs(1));
  EXPECT_EQ(RunWith({"--snapshot-name-uuid-length=-2", "--kubeconfig=/nonexistent"}), 1);
  EXPECT_THAT(logs_.Grep("must be between -1 and 32, not -2"), SizeIs(1));
}

// §9.9: the same for the group snapshot name, whether groups are on or not.
TEST_F(SnapshotterRunTest, GroupSnapshotNameUuidLengthOutOfRangeExitsOne) {
  EXPECT_EQ(RunWith({"--groupsnapshot-name-uuid-length=33", "--kubeconfig=/nonexistent"}), 1);
  EXPECT_THAT(
      logs_.Grep("Option -groupsnapshot-name-uuid-length must be between -1 and 32, not 33"),
      SizeIs(1));
}

// Upstream logs the config error itself, nothing else.
TEST_F(SnapshotterRunTest, MissingKubeconfigExitsOneNamingTheFile) {
  std::string missing = (dir_.path() / "no-such-kubeconfig").string();
  EXPECT_EQ(RunWith({"--kubeconfig=" + missing}), 1);
  auto lines = logs_.Grep(missing);
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("E"));
}

TEST_F(SnapshotterRunTest, BurstMustBePositiveWithQps) {
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig_, "--kube-api-burst=0"}), 1);
  EXPECT_THAT(logs_.Grep("\"burst is required to be greater than 0 when RateLimiter is not set "
                         "and QPS is set to greater than 0\""),
              SizeIs(1));
}

// Upstream: klog.Fatal, exit 255, after the clients are built.
TEST_F(SnapshotterRunTest, NodeDeploymentWithoutNodeNameIsFatal) {
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig_, "--node-deployment"}), 255);
  auto lines = logs_.Grep(
      "The NODE_NAME environment variable must be set when using --enable-node-deployment.");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("F"));
}

TEST_F(SnapshotterRunTest, MetricsAddressAndHttpEndpointConflict) {
  EXPECT_EQ(
      RunWith({"--kubeconfig=" + kubeconfig_, "--metrics-address=:8080", "--http-endpoint=:8081"}),
      1);
  EXPECT_THAT(logs_.Grep("\"only one of `--metrics-address` and `--http-endpoint` can be set.\""),
              SizeIs(1));
}

TEST_F(SnapshotterRunTest, LeaderElectionDurationsAreCheckedOnlyWhenEnabled) {
  const std::vector<std::string> bad_lease = {"--kubeconfig=" + kubeconfig_,
                                              "--csi-address=tcp://x",
                                              "--leader-election-lease-duration=5s"};
  EXPECT_EQ(RunWith(bad_lease), 1);
  EXPECT_THAT(logs_.Grep("leader election"), IsEmpty());

  std::vector<std::string> with_election = bad_lease;
  with_election.push_back("--leader-election");
  EXPECT_EQ(RunWith(with_election), 1);
  auto lines = logs_.Grep("\"Failed to initialize leader election\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("leaseDuration must be greater than renewDeadline"));
}

TEST_F(SnapshotterRunTest, UnusableCsiAddressExitsOneWithUpstreamsMessage) {
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig_, "--csi-address=tcp://x"}), 1);
  auto lines = logs_.Grep("error connecting to CSI driver: ");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0],
              HasSubstr("OnConnectionLoss callback only supported for unix:// addresses"));
}

// The steps after connecting, against a driver served in-process.
class SnapshotterRunWithDriverTest : public SnapshotterRunTest {
 protected:
  SnapshotterRunWithDriverTest() {
    driver_.get_plugin_info = [this](auto*, const auto&, v1::GetPluginInfoResponse* r) {
      Record("name");
      if (driver_name_fails_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "not yet");
      r->set_name(driver_name_);
      r->set_vendor_version("1.0");
      return grpc::Status::OK;
    };
    driver_.probe = [this](auto*, const auto&, v1::ProbeResponse*) {
      Record("probe");
      if (on_probe_) on_probe_();
      return probe_status_;
    };
    driver_.get_plugin_capabilities = [this](auto*, const auto&, auto*) {
      Record("plugin capabilities");
      return grpc::Status::OK;
    };
    driver_.controller_get_capabilities = [this](auto*, const auto&,
                                                 v1::ControllerGetCapabilitiesResponse* r) {
      Record("controller capabilities");
      for (auto type : controller_caps_) r->add_capabilities()->mutable_rpc()->set_type(type);
      return controller_caps_status_;
    };
    driver_.group_controller_get_capabilities =
        [this](auto*, const auto&, v1::GroupControllerGetCapabilitiesResponse* r) {
          Record("group controller capabilities");
          for (auto type : group_caps_) r->add_capabilities()->mutable_rpc()->set_type(type);
          return grpc::Status::OK;
        };
    driver_.Start();
  }

  void Record(std::string step) {
    std::lock_guard lock(mu_);
    steps_.push_back(std::move(step));
  }
  std::vector<std::string> steps() {
    std::lock_guard lock(mu_);
    return steps_;
  }

  std::vector<std::string> Args(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--kubeconfig=" + kubeconfig_,
                                     "--csi-address=" + driver_.socket_path(), "--timeout=1s"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  csi::testing::FakeDriver driver_;
  std::string driver_name_ = "fake.csi.example.com";
  bool driver_name_fails_ = false;
  grpc::Status probe_status_ = grpc::Status::OK;
  std::function<void()> on_probe_;
  grpc::Status controller_caps_status_ = grpc::Status::OK;
  std::vector<v1::ControllerServiceCapability::RPC::Type> controller_caps_ = {
      v1::ControllerServiceCapability::RPC::CREATE_DELETE_SNAPSHOT,
      v1::ControllerServiceCapability::RPC::LIST_SNAPSHOTS};
  std::vector<v1::GroupControllerServiceCapability::RPC::Type> group_caps_;
  std::mutex mu_;  // guards steps_: the driver's scripts run on gRPC threads
  std::vector<std::string> steps_;
};

// §3.2 steps 2-6 and 9, with the group CRDs missing (the API server is
// unreachable): name, then probe, then the controller's capabilities only.
TEST_F(SnapshotterRunWithDriverTest, StartsInUpstreamsOrder) {
  EXPECT_EQ(RunUntilLogged(Args({"-v=2"}), "\"Starting CSI snapshotter\""), 0);
  EXPECT_THAT(steps(), ElementsAre("name", "probe", "controller capabilities"));
  EXPECT_THAT(logs_.Grep(R"("CSI driver name: \"fake.csi.example.com\"")"), SizeIs(1));
  EXPECT_THAT(logs_.Grep("\"Start NewCSISnapshotSideCarController with snapshotter "
                         "[fake.csi.example.com] kubeconfig [" +
                         kubeconfig_ + "] csiTimeout [1s] csiAddress [" + driver_.socket_path() +
                         "] resyncPeriod [15m0s] snapshotNamePrefix [snapshot] "
                         "snapshotNameUUIDLength [-1]\""),
              SizeIs(1));
  // §3.2 step 7: the gate is on, the CRD list fails: a warning, no group calls.
  auto warning = logs_.Grep(
      "VolumeGroupSnapshot CRDs were not found; disabling the VolumeGroupSnapshot feature for "
      "this run. Install the VolumeGroupSnapshot CRDs to use this feature: ");
  ASSERT_THAT(warning, SizeIs(1));
  EXPECT_THAT(warning[0], StartsWith("W"));
  EXPECT_THAT(logs_.Grep("\"Shutting CSI snapshotter\""), SizeIs(1));
}

TEST_F(SnapshotterRunWithDriverTest, GroupGateOffSkipsTheCrdCheck) {
  EXPECT_EQ(RunUntilLogged(Args({"--feature-gates=CSIVolumeGroupSnapshot=false"}),
                           "\"Starting CSI snapshotter\""),
            0);
  EXPECT_THAT(logs_.Grep("VolumeGroupSnapshot CRDs were not found"), IsEmpty());
}

// §3.2 step 4: the HTTP server serves before the probe; the calls after
// GetPluginInfo carry the driver's name (§9.10; GetPluginInfo itself is
// recorded before the name is known, as upstream does).
TEST_F(SnapshotterRunWithDriverTest, HttpEndpointServesBeforeTheProbe) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  std::string metrics_at_probe;
  on_probe_ = [&] {
    if (metrics_at_probe.empty()) metrics_at_probe = testsupport::HttpGet(*port, "/metrics");
  };
  const std::string address = "127.0.0.1:" + std::to_string(*port);
  std::string metrics_when_running;
  EXPECT_EQ(RunUntilLogged(Args({"--http-endpoint=" + address}), "\"Starting CSI snapshotter\"",
                           [&] { metrics_when_running = testsupport::HttpGet(*port, "/metrics"); }),
            0);
  EXPECT_THAT(logs_.Grep("\"ServeMux listening at \\\"" + address + "\\\"\""), SizeIs(1));
  EXPECT_THAT(metrics_at_probe, HasSubstr("200 OK"));
  EXPECT_THAT(metrics_at_probe,
              HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"unknown-driver\","
                        "grpc_status_code=\"OK\",method_name=\"/csi.v1.Identity/"
                        "GetPluginInfo\"} 1"));
  EXPECT_THAT(metrics_at_probe, HasSubstr("workqueue_depth{name=\"csi-snapshotter-content\"} 0"));
  EXPECT_THAT(metrics_when_running,
              HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"fake.csi.example."
                        "com\",grpc_status_code=\"OK\",method_name=\"/csi.v1.Controller/"
                        "ControllerGetCapabilities\"} 1"));
  EXPECT_THAT(metrics_when_running,
              HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"fake.csi.example."
                        "com\",grpc_status_code=\"OK\",method_name=\"/csi.v1.Identity/Probe\"} 1"));
}

// Upstream: klog.Fatalf from the server's goroutine, exit 255; here before
// the probe.
TEST_F(SnapshotterRunWithDriverTest, HttpEndpointThatCannotListenIsFatal) {
  auto taken = metrics::HttpServer::Start("127.0.0.1:0");
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  const std::string address = "127.0.0.1:" + std::to_string((*taken)->port());
  EXPECT_EQ(RunWith(Args({"--metrics-address=" + address, "--metrics-path=/m"})), 255);
  auto lines = logs_.Grep("Failed to start HTTP server at specified address (\\\"" + address +
                          "\\\") and metrics path (\\\"/m\\\"): ");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("F"));
  EXPECT_THAT(steps(), ElementsAre("name"));
}

// §3.2 step 3: the name comes first; its failure ends start-up unprobed.
TEST_F(SnapshotterRunWithDriverTest, FailedGetPluginInfoExitsOneBeforeProbing) {
  driver_name_fails_ = true;
  EXPECT_EQ(RunWith(Args()), 1);
  EXPECT_THAT(logs_.Grep("\"error getting CSI driver name: "), SizeIs(1));
  EXPECT_THAT(steps(), ElementsAre("name"));
}

TEST_F(SnapshotterRunWithDriverTest, EmptyDriverNameExitsOne) {
  driver_name_ = "";
  EXPECT_EQ(RunWith(Args()), 1);
  EXPECT_THAT(logs_.Grep("\"error getting CSI driver name: driver name is empty\""), SizeIs(1));
}

TEST_F(SnapshotterRunWithDriverTest, FailedProbeExitsOne) {
  probe_status_ = grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "no probe");
  EXPECT_EQ(RunWith(Args()), 1);
  auto lines = logs_.Grep("\"error waiting for CSI driver to be ready: CSI driver probe failed");
  EXPECT_THAT(lines, SizeIs(1));
  EXPECT_THAT(steps(), ElementsAre("name", "probe"));
}

TEST_F(SnapshotterRunWithDriverTest, StopWhileProbingExitsZero) {
  driver_.probe = [](auto*, const auto&, v1::ProbeResponse* r) {
    r->mutable_ready()->set_value(false);
    return grpc::Status::OK;
  };
  EXPECT_EQ(RunUntilLogged(Args({"-v=2"}), "Probing CSI driver for readiness"), 0);
  EXPECT_THAT(logs_.Grep("Shutdown requested during startup"), SizeIs(1));
}

// §3.2 step 6.
TEST_F(SnapshotterRunWithDriverTest, DriverWithoutCreateDeleteSnapshotExitsOne) {
  controller_caps_ = {v1::ControllerServiceCapability::RPC::LIST_SNAPSHOTS,
                      v1::ControllerServiceCapability::RPC::PUBLISH_UNPUBLISH_VOLUME};
  EXPECT_EQ(RunWith(Args()), 1);
  auto lines =
      logs_.Grep("\"CSI driver fake.csi.example.com does not support ControllerCreateSnapshot\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("E"));
  EXPECT_THAT(logs_.Grep("Starting CSI snapshotter"), IsEmpty());
}

TEST_F(SnapshotterRunWithDriverTest, FailedControllerCapabilitiesExitsOne) {
  controller_caps_status_ = grpc::Status(grpc::StatusCode::INTERNAL, "broken");
  EXPECT_EQ(RunWith(Args()), 1);
  EXPECT_THAT(logs_.Grep("\"error determining if driver supports create/delete snapshot "
                         "operations: "),
              SizeIs(1));
}

// Upstream asks ControllerGetCapabilities directly, never the plugin's services.
TEST_F(SnapshotterRunWithDriverTest, PluginCapabilitiesAreNeverAsked) {
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting CSI snapshotter\""), 0);
  EXPECT_THAT(steps(), Not(::testing::Contains("plugin capabilities")));
}

// §3.2 step 9 with --node-deployment: NODE_NAME set, the contents watched
// are those managed by this node; classes are all watched.
TEST_F(SnapshotterRunWithDriverTest, NodeDeploymentWatchesOnlyThisNodesContents) {
  ScopedEnv node_name("NODE_NAME", "node-1");
  testsupport::ScriptedHttpServer api;  // answers 500 to everything unscripted
  const std::string kubeconfig = WriteKubeconfig("scripted", Kubeconfig(api.url()));
  auto asked = [&](const std::string& needle) {
    for (const auto& request : api.requests()) {
      if (request.target.find(needle) != std::string::npos) return request.target;
    }
    return std::string();
  };
  EXPECT_EQ(RunUntilLogged({"--kubeconfig=" + kubeconfig, "--csi-address=" + driver_.socket_path(),
                            "--timeout=1s", "--node-deployment"},
                           "\"Starting CSI snapshotter\"",
                           [&] {
                             auto give_up =
                                 std::chrono::steady_clock::now() + std::chrono::seconds(20);
                             while ((asked("volumesnapshotcontents").empty() ||
                                     asked("volumesnapshotclasses").empty()) &&
                                    std::chrono::steady_clock::now() < give_up) {
                               std::this_thread::sleep_for(std::chrono::milliseconds(10));
                             }
                           }),
            0);
  EXPECT_THAT(asked("/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents"),
              HasSubstr("labelSelector=snapshot.storage.kubernetes.io%2Fmanaged-by%3Dnode-1"));
  EXPECT_THAT(asked("/apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses"),
              AllOf(Not(IsEmpty()), Not(HasSubstr("labelSelector"))));
}

// §3.2 step 7 with the CRDs present: the group capabilities are asked and
// only logged; an empty group name prefix then ends start-up.
TEST_F(SnapshotterRunWithDriverTest, GroupCrdsPresentAndEmptyGroupPrefixExitsOne) {
  testsupport::ScriptedHttpServer api;
  api.Script({200, {}, {R"({"kind":"VolumeGroupSnapshotContentList","items":[]})"}});
  api.Script({200, {}, {R"({"kind":"VolumeGroupSnapshotClassList","items":[]})"}});
  const std::string kubeconfig = WriteKubeconfig("scripted", Kubeconfig(api.url()));
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig, "--csi-address=" + driver_.socket_path(),
                     "--timeout=1s", "--groupsnapshot-name-prefix="}),
            1);
  EXPECT_THAT(steps(), ElementsAre("name", "probe", "controller capabilities",
                                   "group controller capabilities"));
  EXPECT_THAT(logs_.Grep("\"CSI driver fake.csi.example.com does not support "
                         "GroupControllerCreateVolumeGroupSnapshot when the "
                         "--feature-gates=CSIVolumeGroupSnapshot=true flag is set\""),
              SizeIs(1));
  EXPECT_THAT(logs_.Grep("\"group snapshot name prefix cannot be of length 0\""), SizeIs(1));
  auto requests = api.requests();
  ASSERT_THAT(requests, SizeIs(2));
  EXPECT_EQ(requests[0].target,
            "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotcontents?limit=1");
  EXPECT_EQ(requests[1].target,
            "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotclasses?limit=1");
}

// §3.2 steps 7 and 9 with the CRDs present and a driver that does groups:
// the run goes on and watches VolumeGroupSnapshotContents and their classes
// beside the single contents.
TEST_F(SnapshotterRunWithDriverTest, GroupCrdsPresentTurnsGroupContentsOn) {
  group_caps_ = {
      v1::GroupControllerServiceCapability::RPC::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT};
  testsupport::ScriptedHttpServer api;
  api.Script({200, {}, {R"({"items":[]})"}});
  api.Script({200, {}, {R"({"items":[]})"}});
  const std::string kubeconfig = WriteKubeconfig("scripted", Kubeconfig(api.url()));
  const std::string group_path = "/apis/groupsnapshot.storage.k8s.io/v1/";
  // The informers' lists, after the two CRD checks (limit=1).
  auto listed = [&](const std::string& plural) {
    for (const auto& request : api.requests()) {
      if (request.target.starts_with(group_path + plural) &&
          request.target != group_path + plural + "?limit=1") {
        return true;
      }
    }
    return false;
  };
  EXPECT_EQ(
      RunUntilLogged(
          {"--kubeconfig=" + kubeconfig, "--csi-address=" + driver_.socket_path(), "--timeout=1s"},
          "\"Starting CSI snapshotter\"",
          [&] {
            auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (
                !(listed("volumegroupsnapshotcontents") && listed("volumegroupsnapshotclasses")) &&
                std::chrono::steady_clock::now() < give_up) {
              std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
          }),
      0);
  EXPECT_THAT(logs_.Grep("does not support GroupControllerCreateVolumeGroupSnapshot"), IsEmpty());
  EXPECT_TRUE(listed("volumegroupsnapshotcontents"));
  EXPECT_TRUE(listed("volumegroupsnapshotclasses"));
}

// A driver that goes away ends the sidecar, leaving a termination message.
TEST_F(SnapshotterRunWithDriverTest, LostConnectionIsReportedWithATerminationMessage) {
  std::promise<void> lost;
  env_.on_connection_loss = [&] { lost.set_value(); };
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting CSI snapshotter\"",
                           [&] {
                             driver_.Stop();
                             EXPECT_EQ(lost.get_future().wait_for(std::chrono::seconds(10)),
                                       std::future_status::ready);
                           }),
            0);
  std::ifstream message(env_.termination_log_path);
  std::string text((std::istreambuf_iterator<char>(message)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "Lost connection to CSI driver, exiting");
}

}  // namespace
}  // namespace csisnapshotter
