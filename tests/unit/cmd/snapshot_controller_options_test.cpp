// docs/snapshots.md §4.1: every flag of upstream's snapshot-controller, with
// its Go syntax and default, and none of the sidecars' flags it lacks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "cmd/snapshot-controller/options.h"
#include "tests/unit/cmd/flags_test_fixture.h"

namespace snapshotcontroller {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

class SnapshotControllerOptionsTest : public cmdtest::FlagsTest<Options, RegisterFlags> {
 protected:
  SnapshotControllerOptionsTest() : FlagsTest("snapshot-controller") {}
};

TEST_F(SnapshotControllerOptionsTest, DefaultsMatchUpstream) {
  ASSERT_EQ(Parse({}), -1) << output_.str();
  ExpectStandardDefaults();
  EXPECT_EQ(options_.resync_period, minutes(15));
  EXPECT_EQ(options_.worker_threads, 10);
  EXPECT_EQ(options_.retry_crd_interval_max, seconds(30));
  EXPECT_FALSE(options_.enable_distributed_snapshotting);
  EXPECT_TRUE(options_.prevent_volume_mode_conversion);
}

TEST_F(SnapshotControllerOptionsTest, EveryFlagParsesWithGoSyntax) {
  ASSERT_EQ(Parse({"--kubeconfig=/etc/kube/config",
                   "--resync-period=1h30m",
                   "--version=false",
                   "-worker-threads",
                   "-3",
                   "-leader-election",
                   "--leader-election-namespace=kube-system",
                   "--leader-election-lease-duration=30s",
                   "--leader-election-renew-deadline=20s",
                   "--leader-election-retry-period=2s",
                   "--kube-api-qps=1e2",
                   "--kube-api-burst=0x14",
                   "--http-endpoint=:8080",
                   "--metrics-path=/m",
                   "--retry-interval-start=300ms",
                   "--retry-interval-max",
                   "2m",
                   "--retry-crd-interval-max=1.5s",
                   "--enable-distributed-snapshotting",
                   "--prevent-volume-mode-conversion=false",
                   "--feature-gates=CSIVolumeGroupSnapshot=false",
                   "--feature-gates",
                   " ReleaseLeaderElectionOnExit=true , ",
                   "--automaxprocs",
                   "-v=4",
                   "--logging-format=json"}),
            -1)
      << output_.str();
  EXPECT_EQ(options_.kubeconfig, "/etc/kube/config");
  EXPECT_EQ(options_.resync_period, minutes(90));
  EXPECT_FALSE(options_.show_version);
  EXPECT_EQ(options_.worker_threads, -3);  // upstream does not validate it
  EXPECT_TRUE(options_.leader_election);
  EXPECT_EQ(options_.leader_election_namespace, "kube-system");
  EXPECT_EQ(options_.leader_election_lease_duration, seconds(30));
  EXPECT_EQ(options_.leader_election_renew_deadline, seconds(20));
  EXPECT_EQ(options_.leader_election_retry_period, seconds(2));
  EXPECT_EQ(options_.kube_api_qps, 100.0);
  EXPECT_EQ(options_.kube_api_burst, 20);
  EXPECT_EQ(options_.http_endpoint, ":8080");
  EXPECT_EQ(options_.metrics_path, "/m");
  EXPECT_EQ(options_.retry_interval_start, milliseconds(300));
  EXPECT_EQ(options_.retry_interval_max, minutes(2));
  EXPECT_EQ(options_.retry_crd_interval_max, milliseconds(1500));
  EXPECT_TRUE(options_.enable_distributed_snapshotting);
  EXPECT_FALSE(options_.prevent_volume_mode_conversion);
  EXPECT_THAT(options_.feature_gates, ElementsAre(Pair("CSIVolumeGroupSnapshot", false),
                                                  Pair("ReleaseLeaderElectionOnExit", true)));
  EXPECT_TRUE(options_.automaxprocs);
  EXPECT_EQ(options_.logging.verbosity, 4);
  EXPECT_EQ(options_.logging.format, "json");
}

TEST_F(SnapshotControllerOptionsTest, BadValuesAreUsageErrors) {
  const struct {
    std::vector<std::string> args;
    const char* message;
  } cases[] = {
      {{"--retry-crd-interval-max=30"},
       R"(invalid value "30" for flag -retry-crd-interval-max: parse error)"},
      {{"--resync-period=1d"}, R"(invalid value "1d" for flag -resync-period: parse error)"},
      {{"--worker-threads=ten"}, R"(invalid value "ten" for flag -worker-threads: parse error)"},
      {{"--prevent-volume-mode-conversion=maybe"},
       R"(invalid boolean value "maybe" for -prevent-volume-mode-conversion)"},
      {{"--enable-distributed-snapshotting=2"},
       R"(invalid boolean value "2" for -enable-distributed-snapshotting)"},
      {{"--kube-api-qps=fast"}, R"(invalid value "fast" for flag -kube-api-qps: parse error)"},
      {{"--feature-gates=CSIVolumeGroupSnapshot"}, "malformed pair, expect string=bool"},
      {{"--metrics-path"}, "flag needs an argument: -metrics-path"},
  };
  for (const auto& c : cases) ExpectUsageError(c.args, c.message);
}

// §4.1: the sidecars' flags upstream's controller does not have fail loudly.
TEST_F(SnapshotControllerOptionsTest, SidecarFlagsAreNotDefined) {
  for (const char* flag :
       {"--csi-address=/run/csi/socket", "--timeout=1m", "--metrics-address=:8080",
        "--leader-election-labels=a:b", "--node-deployment", "--snapshot-name-prefix=s",
        "--extra-create-metadata", "--enable-volume-group-snapshots", "--resync=1m"}) {
    ExpectNotDefined(flag);
  }
}

// The names upstream v8.7.0's --help lists, no more and no fewer.
TEST_F(SnapshotControllerOptionsTest, UsageListsExactlyUpstreamsFlags) {
  const std::string usage = flags_.Usage();
  std::vector<std::string> names;
  std::istringstream lines(usage);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  -", 0) != 0) continue;
    names.push_back(line.substr(3, line.find(' ', 3) - 3));
  }
  EXPECT_THAT(names, ElementsAreArray({"automaxprocs",
                                       "enable-distributed-snapshotting",
                                       "feature-gates",
                                       "http-endpoint",
                                       "kube-api-burst",
                                       "kube-api-qps",
                                       "kubeconfig",
                                       "leader-election",
                                       "leader-election-lease-duration",
                                       "leader-election-namespace",
                                       "leader-election-renew-deadline",
                                       "leader-election-retry-period",
                                       "log-flush-frequency",
                                       "log-json-info-buffer-size",
                                       "log-json-split-stream",
                                       "log-text-info-buffer-size",
                                       "log-text-split-stream",
                                       "logging-format",
                                       "metrics-path",
                                       "prevent-volume-mode-conversion",
                                       "resync-period",
                                       "retry-crd-interval-max",
                                       "retry-interval-max",
                                       "retry-interval-start",
                                       "v",
                                       "version",
                                       "vmodule",
                                       "worker-threads"}));
  EXPECT_THAT(usage, HasSubstr("(default 15m0s)"));
  EXPECT_THAT(usage, HasSubstr("(default 30s)"));
  EXPECT_THAT(usage, HasSubstr("(default 5m0s)"));
  EXPECT_THAT(usage, HasSubstr(R"((default "/metrics"))"));
  EXPECT_THAT(usage, HasSubstr("-prevent-volume-mode-conversion\n"));
  EXPECT_THAT(usage, HasSubstr("(default true)"));
  EXPECT_THAT(usage, Not(HasSubstr("metrics-address")));
}

// §4.1: the snapshot binaries' gate table (tested in unit_snapshotter_test),
// settable alpha/beta gates listed, GA ones not.
TEST_F(SnapshotControllerOptionsTest, FeatureGatesHelpListsTheSnapshotGates) {
  const std::string usage = flags_.Usage();
  EXPECT_THAT(usage,
              HasSubstr("\n    \tReleaseLeaderElectionOnExit=true|false (ALPHA - default=false)"));
  EXPECT_THAT(usage, HasSubstr("\n    \tAllAlpha=true|false (ALPHA - default=false)"));
  EXPECT_THAT(usage, Not(HasSubstr("CSIVolumeGroupSnapshot=true|false")));
}

}  // namespace
}  // namespace snapshotcontroller
