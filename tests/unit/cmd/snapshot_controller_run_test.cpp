// docs/snapshots.md §4.1: the snapshot-controller's start-up order, exit
// codes and messages (upstream v8.7.0's cmd/snapshot-controller), its HTTP
// endpoint (§4.6), its Lease, and §9.8/§9.9 (graceful stop, positional
// arguments), driven through Run() with arguments, captured streams and logs
// and a scripted API server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "cmd/snapshot-controller/run.h"
#include "metrics/http_server.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"
#include "tests/support/kubeconfig_file.h"
#include "tests/support/scripted_http_server.h"
#include "tests/unit/cmd/run_test_fixture.h"
#include "tests/unit/csi/fake_driver.h"

namespace snapshotcontroller {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using ::testing::StartsWith;
using testsupport::ScriptedHttpServer;

constexpr char kSnapshots[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshots?limit=1";
constexpr char kClasses[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses?limit=1";
constexpr char kContents[] = "/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents?limit=1";
constexpr char kGroups[] = "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshots?limit=1";
constexpr char kGroupClasses[] =
    "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotclasses?limit=1";
constexpr char kGroupContents[] =
    "/apis/groupsnapshot.storage.k8s.io/v1/volumegroupsnapshotcontents?limit=1";

class SnapshotControllerRunTest : public cmdtest::BinaryRunTest<snapshotcontroller::Run> {
 protected:
  // V(2): upstream's start-up lines.
  SnapshotControllerRunTest() : BinaryRunTest("snapshot-controller", 2) {
    kubeconfig_ = KubeconfigFor(api_.url());
  }

  std::string KubeconfigFor(const std::string& server) {
    const std::string path = (dir_.path() / "kubeconfig").string();
    base::Status s = testsupport::WriteKubeconfig(
        path, {.server = server, .ca_file = {}, .user = "u", .token = "t"});
    EXPECT_TRUE(s.ok()) << s.error().message;
    return path;
  }

  // The kubeconfig, the shortest CRD wait (1 s) and -v=2 (upstream logs its
  // start-up line at V(2)), then `extra`.
  std::vector<std::string> Args(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--kubeconfig=" + kubeconfig_, "--retry-crd-interval-max=0",
                                     "-v=2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  // The API server serves the snapshot CRDs (and the group ones when `groups`).
  void ServeCrds(bool groups = true) {
    for (int i = 0; i < (groups ? 6 : 3); ++i) api_.Script({200, {}, {R"({"items":[]})"}});
  }

  std::vector<std::string> Targets() const {
    std::vector<std::string> targets;
    for (const auto& request : api_.requests()) targets.push_back(request.target);
    return targets;
  }

  ScriptedHttpServer api_;  // answers 500 to everything unscripted
  std::string kubeconfig_;
};

TEST_F(SnapshotControllerRunTest, HelpListsFlagsAndExitsZero) {
  EXPECT_EQ(RunWith({"--help"}), 0);
  EXPECT_THAT(err_.str(), AllOf(HasSubstr("Usage of snapshot-controller:"),
                                HasSubstr("-retry-crd-interval-max"),
                                HasSubstr("-prevent-volume-mode-conversion"),
                                HasSubstr("-feature-gates"), Not(HasSubstr("-csi-address"))));
}

TEST_F(SnapshotControllerRunTest, VersionPrintsProgramAndVersion) {
  ExpectVersionPrintsProgramAndVersion();
  EXPECT_THAT(api_.requests(), IsEmpty());
}

// §9.9: upstream silently ignores everything after `false`.
TEST_F(SnapshotControllerRunTest, PositionalArgumentIsAnErrorNamingTheFlagForm) {
  EXPECT_EQ(RunWith({"-leader-election", "false", "--worker-threads=1"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("unexpected positional argument \"false\""));
  EXPECT_THAT(err_.str(), HasSubstr("--leader-election=false"));
}

// §4.1: flags of the sidecars that the controller does not have.
TEST_F(SnapshotControllerRunTest, SidecarFlagsExitTwo) {
  EXPECT_EQ(RunWith({"--leader-election-labels=a:b"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("flag provided but not defined: -leader-election-labels"));
  EXPECT_EQ(RunWith({"--metrics-address=:8080"}), 2);
  EXPECT_THAT(err_.str(), HasSubstr("flag provided but not defined: -metrics-address"));
}

TEST_F(SnapshotControllerRunTest, InvalidLoggingConfigurationExitsOne) {
  ExpectInvalidLoggingConfigurationExitsOne();
}

TEST_F(SnapshotControllerRunTest, UnknownFeatureGateIsFatal) {
  ExpectRefusedFeatureGateIsFatal("Warp=true", "unrecognized feature gate: Warp");
}

TEST_F(SnapshotControllerRunTest, LockedFeatureGateIsFatal) {
  ExpectRefusedFeatureGateIsFatal(
      "SeparateCacheWatchRPC=true",
      "cannot set feature gate SeparateCacheWatchRPC to true, feature is locked to false");
}

TEST_F(SnapshotControllerRunTest, SnapshotAndApiserverGatesAreAccepted) {
  EXPECT_EQ(RunWith({"--feature-gates=CSIVolumeGroupSnapshot=false,"
                     "ReleaseLeaderElectionOnExit=true,WatchList=false",
                     "--version"}),
            0);
}

// Upstream logs the config error itself, nothing else.
TEST_F(SnapshotControllerRunTest, MissingKubeconfigExitsOneNamingTheFile) {
  std::string missing = (dir_.path() / "no-such-kubeconfig").string();
  EXPECT_EQ(RunWith({"--kubeconfig=" + missing}), 1);
  auto lines = logs_.Grep(missing);
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("E"));
}

TEST_F(SnapshotControllerRunTest, BurstMustBePositiveWithQps) {
  EXPECT_EQ(RunWith(Args({"--kube-api-burst=0"})), 1);
  EXPECT_THAT(logs_.Grep("\"burst is required to be greater than 0 when RateLimiter is not set "
                         "and QPS is set to greater than 0\""),
              SizeIs(1));
  EXPECT_THAT(api_.requests(), IsEmpty());
}

TEST_F(SnapshotControllerRunTest, LeaderElectionDurationsAreCheckedOnlyWhenEnabled) {
  EXPECT_EQ(RunWith(Args({"--leader-election-lease-duration=5s", "--leader-election"})), 1);
  auto lines = logs_.Grep("\"Failed to initialize leader election\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("leaseDuration must be greater than renewDeadline"));
  EXPECT_THAT(api_.requests(), IsEmpty());  // before the CRD check

  // Without --leader-election they are not looked at: the CRD check runs.
  ServeCrds();
  EXPECT_EQ(RunUntilLogged(Args({"--leader-election-lease-duration=5s"}),
                           "\"Start NewCSISnapshotController with kubeconfig"),
            0);
  EXPECT_THAT(logs_.Grep("\"Failed to initialize leader election\""), SizeIs(1));
}

// §4.1: VolumeSnapshots, classes and contents are listed before anything
// else; without them start-up ends after the wait (at least 1 s) with exit 1.
TEST_F(SnapshotControllerRunTest, MissingSnapshotCrdsExitOneAfterTheWait) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunWith(Args()), 1);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  auto lines = logs_.Grep(
      "\"Exiting due to failure to ensure CRDs exist during startup: context deadline exceeded\"");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("E"));
  // Rounds at 0, 0.1, 0.25, 0.475 and 0.8125 s on an idle machine; the
  // pauses are tested exactly with a fake clock in crd_check_test.
  const std::vector<std::string> targets = Targets();
  EXPECT_THAT(targets, SizeIs(::testing::Ge(2u)));
  for (const std::string& target : targets) EXPECT_EQ(target, kSnapshots);
  EXPECT_THAT(logs_.Grep("Start NewCSISnapshotController"), IsEmpty());
}

// Upstream listens only after the CRD check; a stop meanwhile exits 0.
TEST_F(SnapshotControllerRunTest, StopDuringTheCrdWaitExitsZeroWithoutServingHttp) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  std::string metrics_during_wait = "not asked";
  EXPECT_EQ(RunUntilLogged(Args({"--retry-crd-interval-max=1h",
                                 "--http-endpoint=127.0.0.1:" + std::to_string(*port)}),
                           "Failed to list v1 volumesnapshots",
                           [&] { metrics_during_wait = testsupport::HttpGet(*port, "/metrics"); }),
            0);
  EXPECT_EQ(metrics_during_wait, "");
  EXPECT_THAT(logs_.Grep("\"Metrics path successfully registered at /metrics\""), SizeIs(1));
  EXPECT_THAT(logs_.Grep("Shutdown requested during startup"), SizeIs(1));
}

// §4.1 in upstream's order: the snapshot CRDs, the group CRDs, then the
// controller, with groups on (the gate's default, CRDs served).
TEST_F(SnapshotControllerRunTest, StartsInUpstreamsOrderWithGroupsOn) {
  ServeCrds();
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting snapshot controller\" groupSnapshots=true"), 0);
  EXPECT_THAT(logs_.Grep("\"Start NewCSISnapshotController with kubeconfig [" + kubeconfig_ +
                         "] resyncPeriod [15m0s]\""),
              SizeIs(1));
  const std::vector<std::string> targets = Targets();
  ASSERT_GE(targets.size(), 6u);
  EXPECT_THAT(std::vector<std::string>(targets.begin(), targets.begin() + 6),
              ElementsAre(kSnapshots, kClasses, kContents, kGroups, kGroupClasses, kGroupContents));
  EXPECT_THAT(logs_.Grep("VolumeGroupSnapshot CRDs"), IsEmpty());
  EXPECT_THAT(logs_.Grep("Metrics path"), IsEmpty());  // no --http-endpoint
  EXPECT_THAT(logs_.Grep("Metrics http server"), IsEmpty());
}

TEST_F(SnapshotControllerRunTest, GroupGateOffSkipsTheGroupCrdCheckAndRunsWithoutGroups) {
  ServeCrds(/*groups=*/false);
  EXPECT_EQ(RunUntilLogged(Args({"--feature-gates=CSIVolumeGroupSnapshot=false"}),
                           "\"Starting snapshot controller\" groupSnapshots=false"),
            0);
  for (const std::string& target : Targets()) EXPECT_THAT(target, Not(HasSubstr("groupsnapshot")));
  EXPECT_THAT(logs_.Grep("VolumeGroupSnapshot CRDs"), IsEmpty());
}

// Missing group CRDs cost the wait and one warning; the controller still
// runs, without groups (upstream v8.7.0).
TEST_F(SnapshotControllerRunTest, MissingGroupCrdsWarnOnceAndRunWithoutGroups) {
  ServeCrds(/*groups=*/false);
  EXPECT_EQ(RunUntilLogged(Args(), "\"Starting snapshot controller\" groupSnapshots=false"), 0);
  auto warning = logs_.Grep(
      "\"VolumeGroupSnapshot CRDs were not found; disabling the VolumeGroupSnapshot feature for "
      "this run. Install the VolumeGroupSnapshot CRDs to use this feature: context deadline "
      "exceeded\"");
  ASSERT_THAT(warning, SizeIs(1));
  EXPECT_THAT(warning[0], StartsWith("W"));
}

// §4.6: the controller's own registry at --metrics-path, nothing of the
// sidecars' (no leader election, workqueue or CSI metrics).
TEST_F(SnapshotControllerRunTest, HttpEndpointServesTheOperationMetrics) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  const std::string address = "127.0.0.1:" + std::to_string(*port);
  ServeCrds();
  std::string metrics;
  std::string health;
  EXPECT_EQ(RunUntilLogged(Args({"--http-endpoint=" + address, "--metrics-path=/m"}),
                           "\"Metrics http server successfully started on " + address + ", /m\"",
                           [&] {
                             metrics = testsupport::HttpGet(*port, "/m");
                             health = testsupport::HttpGet(*port, "/healthz/leader-election");
                           }),
            0);
  EXPECT_THAT(metrics, HasSubstr("200 OK"));
  const std::string body = testsupport::HttpBody(metrics);
  EXPECT_THAT(body, HasSubstr("snapshot_controller_operations_in_flight 0\n"));
  EXPECT_THAT(body, HasSubstr("process_start_time_seconds"));
  EXPECT_THAT(body, AllOf(Not(HasSubstr("leader_election")), Not(HasSubstr("workqueue_")),
                          Not(HasSubstr("csi_sidecar"))));
  EXPECT_THAT(health, HasSubstr("404"));  // only with --leader-election
}

// Upstream: klog.Fatalf("failed to listen on address[...]"), exit 255, once
// the CRDs are there.
TEST_F(SnapshotControllerRunTest, HttpEndpointThatCannotListenIsFatal) {
  auto taken = metrics::HttpServer::Start("127.0.0.1:0");
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  const std::string address = "127.0.0.1:" + std::to_string((*taken)->port());
  ServeCrds();
  EXPECT_EQ(RunWith(Args({"--http-endpoint=" + address})), 255);
  auto lines = logs_.Grep("failed to listen on address[" + address + "], error[");
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], StartsWith("F"));
  EXPECT_THAT(Targets(), SizeIs(6));
}

// §4.1: the Lease snapshot-controller-leader in the given namespace, asked
// for on the elector's own client before the controller starts; the health
// check is served beside the metrics.
TEST_F(SnapshotControllerRunTest, LeaderElectionCompetesForTheControllersLease) {
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  ServeCrds();
  std::string health;
  EXPECT_EQ(
      RunUntilLogged(Args({"--leader-election", "--leader-election-namespace=snap-system",
                           "--http-endpoint=127.0.0.1:" + std::to_string(*port)}),
                     "\"Error retrieving the leader election lease\"",
                     [&] { health = testsupport::HttpGet(*port, "/healthz/leader-election"); }),
      0);
  const std::vector<std::string> targets = Targets();
  ASSERT_THAT(targets, SizeIs(::testing::Ge(7u)));
  EXPECT_EQ(
      targets[6],
      "/apis/coordination.k8s.io/v1/namespaces/snap-system/leases/snapshot-controller-leader");
  EXPECT_THAT(health, HasSubstr("200 OK"));
  EXPECT_THAT(logs_.Grep("Start NewCSISnapshotController"), SizeIs(1));
}

}  // namespace
}  // namespace snapshotcontroller
