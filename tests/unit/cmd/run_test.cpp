// docs/attacher.md §1.4 startup order and exit codes, §2 CSI connection steps, and
// §7 (positional arguments are an error), driven through Run() with
// arguments, captured streams and logs, and an in-process CSI driver.
#include "attacher/command/run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>

#include "metrics/http_server.h"
#include "tests/unit/cmd/run_test_fixture.h"
#include "tests/unit/csi/fake_driver.h"

namespace csiattacher {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

namespace v1 = ::csi::v1;

// An API server address nothing listens on: the controller's lists fail and
// are retried, which is all the wiring tests need.
constexpr char kKubeconfig[] =
    "apiVersion: v1\nkind: Config\ncurrent-context: main\n"
    "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n"
    "users:\n- name: u\n  user:\n    token: t\n"
    "contexts:\n- name: main\n  context:\n    cluster: c\n    user: u\n";

class RunTest : public cmdtest::BinaryRunTest<csiattacher::Run> {
 protected:
  RunTest() : BinaryRunTest("csi-attacher", 0) {
    kubeconfig_ = (dir_.path() / "kubeconfig").string();
    std::ofstream(kubeconfig_) << kKubeconfig;
  }

  std::string kubeconfig_;
};

TEST_F(RunTest, HelpListsFlagsAndExitsZero) {
  EXPECT_EQ(RunWith({"--help"}), 0);
  EXPECT_THAT(err_.str(), AllOf(HasSubstr("Usage of csi-attacher:"), HasSubstr("-csi-address"),
                                HasSubstr("-worker-threads"), HasSubstr("-feature-gates")));
  EXPECT_EQ(RunWith({"-h"}), 0);
}

TEST_F(RunTest, VersionPrintsProgramAndVersion) { ExpectVersionPrintsProgramAndVersion(); }

// docs/attacher.md §7: upstream silently ignores everything after `false`.
TEST_F(RunTest, PositionalArgumentIsAnErrorNamingTheFlagForm) {
  EXPECT_EQ(RunWith({"-leader-election", "false", "--timeout=1s"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("unexpected positional argument \"false\""));
  EXPECT_THAT(err_.str(), HasSubstr("--leader-election=false"));
  EXPECT_THAT(err_.str(), HasSubstr("Usage of csi-attacher:"));
}

TEST_F(RunTest, AnyPositionalArgumentIsAnError) {
  EXPECT_EQ(RunWith({"--timeout=1s", "extra"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("unexpected positional argument \"extra\""));
}

TEST_F(RunTest, UnknownFlagExitsTwo) {
  EXPECT_EQ(RunWith({"--logtostderr"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("flag provided but not defined: -logtostderr"));
}

TEST_F(RunTest, BadDurationExitsTwo) {
  EXPECT_EQ(RunWith({"--timeout=15"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr(R"(invalid value "15" for flag -timeout: parse error)"));
}

TEST_F(RunTest, MalformedFeatureGatePairExitsTwo) {
  EXPECT_EQ(RunWith({"--feature-gates=WatchList"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("malformed pair, expect string=bool"));
}

TEST_F(RunTest, InvalidLoggingConfigurationExitsOne) {
  ExpectInvalidLoggingConfigurationExitsOne();
  EXPECT_EQ(RunWith({"--log-text-split-stream"}), 1);
}

TEST_F(RunTest, UnknownFeatureGateExitsOne) {
  EXPECT_EQ(RunWith({"--feature-gates=Warp=true", "--version"}), 1);
  auto lines = logs_.Grep("\"failed to store flag gates\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("unrecognized feature gate: Warp"));
  EXPECT_THAT(lines[0], HasSubstr(R"(featureGates="{\"Warp\":true}")"));
  EXPECT_EQ(out_.str(), "");  // gates are checked before --version
}

TEST_F(RunTest, AttacherAndApiserverGatesAreAccepted) {
  EXPECT_EQ(RunWith({"--feature-gates=MutableCSINodeAllocatableCount=false",
                     "--feature-gates=ReleaseLeaderElectionOnExit=true,AllBeta=false,"
                     "ComponentFlagz=true,ComponentStatusz=false,WatchList=false",
                     "--version"}),
            0);
  EXPECT_THAT(logs_.Grep(R"(featureGate="MutableCSINodeAllocatableCount" value=false)"), SizeIs(1));
}

TEST_F(RunTest, MetricsAddressAndHttpEndpointConflict) {
  EXPECT_EQ(RunWith({"--metrics-address=:8080", "--http-endpoint=:8081"}), 1);
  EXPECT_THAT(logs_.Grep("\"Only one of `--metrics-address` and `--http-endpoint` can be set\""),
              SizeIs(1));
  EXPECT_THAT(logs_.Grep("\"Version\" version="), SizeIs(1));
}

TEST_F(RunTest, MissingKubeconfigExitsOneNamingTheFile) {
  std::string missing = (dir_.path() / "no-such-kubeconfig").string();
  EXPECT_EQ(RunWith({"--kubeconfig=" + missing}), 1);
  auto lines = logs_.Grep("\"Failed to build a Kubernetes config\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr(missing));
}

TEST_F(RunTest, ZeroWorkerThreadsExitsOneAfterTheKubeconfig) {
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig_, "--worker-threads=0"}), 1);
  EXPECT_THAT(logs_.Grep("\"Option -worker-threads must be greater than zero\""), SizeIs(1));
}

TEST_F(RunTest, BurstMustBePositiveWithQps) {
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig_, "--kube-api-burst=0"}), 1);
  auto lines = logs_.Grep("\"Failed to create a Clientset\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("burst is required to be greater than 0"));
}

TEST_F(RunTest, TcpCsiAddressExitsOneWithUpstreamsMessage) {
  EXPECT_EQ(RunWith({"--kubeconfig=" + kubeconfig_, "--csi-address=tcp://x"}), 1);
  auto lines = logs_.Grep("\"Failed to connect to the CSI driver\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0],
              HasSubstr("OnConnectionLoss callback only supported for unix:// addresses"));
  EXPECT_THAT(lines[0], HasSubstr("csiAddress=\"tcp://x\""));
}

TEST_F(RunTest, LeaderElectionDurationsAreCheckedOnlyWhenEnabled) {
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

// The steps after connecting, against a driver served in-process.
class RunWithDriverTest : public RunTest {
 protected:
  RunWithDriverTest() {
    driver_.get_plugin_info = [this](auto*, const auto&, v1::GetPluginInfoResponse* r) {
      r->set_name(driver_name_);
      r->set_vendor_version("1.0");
      return grpc::Status::OK;
    };
    driver_.get_plugin_capabilities = [this](auto*, const auto&,
                                             v1::GetPluginCapabilitiesResponse* r) {
      if (controller_service_) {
        r->add_capabilities()->mutable_service()->set_type(
            v1::PluginCapability::Service::CONTROLLER_SERVICE);
      }
      return grpc::Status::OK;
    };
    driver_.controller_get_capabilities = [this](auto*, const auto&,
                                                 v1::ControllerGetCapabilitiesResponse* r) {
      for (auto type : controller_caps_) r->add_capabilities()->mutable_rpc()->set_type(type);
      return grpc::Status::OK;
    };
    driver_.Start();
  }

  std::vector<std::string> Args(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--kubeconfig=" + kubeconfig_,
                                     "--csi-address=" + driver_.socket_path(), "--timeout=1s",
                                     "-v=2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  csi::testing::FakeDriver driver_;
  std::string driver_name_ = "fake.csi.example.com";
  bool controller_service_ = true;
  std::vector<v1::ControllerServiceCapability::RPC::Type> controller_caps_ = {
      v1::ControllerServiceCapability::RPC::PUBLISH_UNPUBLISH_VOLUME,
      v1::ControllerServiceCapability::RPC::LIST_VOLUMES,
      v1::ControllerServiceCapability::RPC::LIST_VOLUMES_PUBLISHED_NODES};
};

TEST_F(RunWithDriverTest, EmptyDriverNameExitsOne) {
  driver_name_ = "";
  EXPECT_EQ(RunWith(Args()), 1);
  auto lines = logs_.Grep("\"Failed to get the CSI driver name\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("driver name is empty"));
}

TEST_F(RunWithDriverTest, FailedProbeExitsOne) {
  driver_.probe = [](auto*, const auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "no probe");
  };
  EXPECT_EQ(RunWith(Args()), 1);
  auto lines = logs_.Grep("\"Failed to probe the CSI driver\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("CSI driver probe failed"));
}

TEST_F(RunWithDriverTest, StopWhileProbingExitsZero) {
  driver_.probe = [](auto*, const auto&, v1::ProbeResponse* r) {
    r->mutable_ready()->set_value(false);
    return grpc::Status::OK;
  };
  EXPECT_EQ(RunUntilLogged(Args(), "Probing CSI driver for readiness"), 0);
  EXPECT_THAT(logs_.Grep("Shutdown requested during startup"), SizeIs(1));
}

TEST_F(RunWithDriverTest, AttachingDriverGetsCsiHandlerAndReconciler) {
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting CSI attacher\""), 0);
  EXPECT_THAT(logs_.Grep("\"CSI driver name\" driver=\"fake.csi.example.com\""), SizeIs(1));
  EXPECT_THAT(logs_.Grep("using real CSI handler"), SizeIs(1));
  EXPECT_THAT(logs_.Grep("Using capability to reconcile"), SizeIs(1));
  EXPECT_THAT(logs_.Grep("\"Shutting CSI attacher\""), SizeIs(1));
}

TEST_F(RunWithDriverTest, DriverWithoutPublishGetsTrivialHandler) {
  controller_caps_ = {v1::ControllerServiceCapability::RPC::LIST_VOLUMES};
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting CSI attacher\""), 0);
  EXPECT_THAT(logs_.Grep("does not support ControllerPublishUnpublish, using trivial handler"),
              SizeIs(1));
  EXPECT_THAT(logs_.Grep("Using capability to reconcile"), IsEmpty());
}

TEST_F(RunWithDriverTest, DriverWithoutControllerServiceGetsTrivialHandler) {
  controller_service_ = false;
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting CSI attacher\""), 0);
  EXPECT_THAT(logs_.Grep("does not support Plugin Controller Service, using trivial handler"),
              SizeIs(1));
}

// §4: with an HTTP address the server starts and the controller runs.
TEST_F(RunWithDriverTest, HttpEndpointIsServedAlongsideTheController) {
  EXPECT_EQ(RunUntilLogged(Args({"--http-endpoint=127.0.0.1:0"}), "\"Starting CSI attacher\""), 0);
  EXPECT_THAT(logs_.Grep("\"Failed to start HTTP server\""), IsEmpty());
}

// §4: the HTTP server starts before the controller; a listen failure exits 1.
TEST_F(RunWithDriverTest, HttpEndpointThatCannotListenExitsOne) {
  auto taken = metrics::HttpServer::Start("127.0.0.1:0");
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  const std::string address = "127.0.0.1:" + std::to_string((*taken)->port());
  EXPECT_EQ(RunWith(Args({"--http-endpoint=" + address})), 1);
  EXPECT_THAT(logs_.Grep("\"Failed to start HTTP server\""), SizeIs(1));
  EXPECT_EQ(RunWith(Args({"--metrics-address=" + address})), 1);
  EXPECT_THAT(logs_.Grep("\"Failed to start HTTP server\""), SizeIs(2));
}

// §2: a driver that goes away ends the sidecar, leaving a termination message.
TEST_F(RunWithDriverTest, LostConnectionIsReportedWithATerminationMessage) {
  std::promise<void> lost;
  env_.on_connection_loss = [&] { lost.set_value(); };
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting CSI attacher\"",
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
}  // namespace csiattacher
