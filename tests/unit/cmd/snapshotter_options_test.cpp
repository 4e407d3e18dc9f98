// docs/snapshots.md §3.1: every flag of upstream's csi-snapshotter, with its
// Go syntax and default, and the checks made after parsing (§9.9).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "snapshotter/command/options.h"
#include "tests/unit/cmd/flags_test_fixture.h"

namespace csisnapshotter {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

class SnapshotterOptionsTest : public cmdtest::FlagsTest<Options, RegisterFlags> {
 protected:
  SnapshotterOptionsTest() : FlagsTest("csi-snapshotter") {}
};

TEST_F(SnapshotterOptionsTest, DefaultsMatchUpstream) {
  ASSERT_EQ(Parse({}), -1) << output_.str();
  ExpectStandardDefaults();
  EXPECT_EQ(options_.resync_period, minutes(15));
  EXPECT_EQ(options_.snapshot_name_prefix, "snapshot");
  EXPECT_EQ(options_.snapshot_name_uuid_length, -1);
  EXPECT_EQ(options_.worker_threads, 10);
  EXPECT_EQ(options_.timeout, minutes(1));
  EXPECT_FALSE(options_.extra_create_metadata);
  EXPECT_FALSE(options_.node_deployment);
  EXPECT_EQ(options_.groupsnapshot_name_prefix, "groupsnapshot");
  EXPECT_EQ(options_.groupsnapshot_name_uuid_length, -1);
}

TEST_F(SnapshotterOptionsTest, EveryFlagParsesWithGoSyntax) {
  ASSERT_EQ(Parse({"--resync-period=1h30m",
                   "-snapshot-name-prefix",
                   "snap",
                   "--snapshot-name-uuid-length=0x10",
                   "--worker-threads=-3",
                   "-timeout",
                   "1.5s",
                   "--extra-create-metadata",
                   "--retry-interval-start=300ms",
                   "--retry-interval-max",
                   "2m",
                   "--node-deployment=true",
                   "--groupsnapshot-name-prefix=",
                   "--groupsnapshot-name-uuid-length=012",
                   "--feature-gates=CSIVolumeGroupSnapshot=false",
                   "--feature-gates",
                   " ReleaseLeaderElectionOnExit=true , ",
                   "--version=false",
                   "--kubeconfig=/etc/kube/config",
                   "--csi-address",
                   "unix:///csi/csi.sock",
                   "--kube-api-qps=1e2",
                   "--kube-api-burst=20",
                   "-leader-election",
                   "--leader-election-namespace=kube-system",
                   "--leader-election-lease-duration=30s",
                   "--leader-election-renew-deadline=20s",
                   "--leader-election-retry-period=2s",
                   "--leader-election-labels=a:b",
                   "--http-endpoint=:8080",
                   "--metrics-address=:8081",
                   "--metrics-path=/m",
                   "--automaxprocs",
                   "-v=4",
                   "--logging-format=json"}),
            -1)
      << output_.str();
  EXPECT_EQ(options_.resync_period, minutes(90));
  EXPECT_EQ(options_.snapshot_name_prefix, "snap");
  EXPECT_EQ(options_.snapshot_name_uuid_length, 16);
  EXPECT_EQ(options_.worker_threads, -3);  // upstream does not validate it
  EXPECT_EQ(options_.timeout, milliseconds(1500));
  EXPECT_TRUE(options_.extra_create_metadata);
  EXPECT_EQ(options_.retry_interval_start, milliseconds(300));
  EXPECT_EQ(options_.retry_interval_max, minutes(2));
  EXPECT_TRUE(options_.node_deployment);
  EXPECT_EQ(options_.groupsnapshot_name_prefix, "");
  EXPECT_EQ(options_.groupsnapshot_name_uuid_length, 10);  // leading 0: octal
  EXPECT_THAT(options_.feature_gates, ElementsAre(Pair("CSIVolumeGroupSnapshot", false),
                                                  Pair("ReleaseLeaderElectionOnExit", true)));
  EXPECT_EQ(options_.kubeconfig, "/etc/kube/config");
  EXPECT_EQ(options_.csi_address, "unix:///csi/csi.sock");
  EXPECT_EQ(options_.kube_api_qps, 100.0);
  EXPECT_EQ(options_.kube_api_burst, 20);
  EXPECT_TRUE(options_.leader_election);
  EXPECT_EQ(options_.leader_election_namespace, "kube-system");
  EXPECT_EQ(options_.leader_election_lease_duration, seconds(30));
  EXPECT_EQ(options_.leader_election_renew_deadline, seconds(20));
  EXPECT_EQ(options_.leader_election_retry_period, seconds(2));
  EXPECT_THAT(options_.leader_election_labels, ElementsAre(Pair("a", "b")));
  EXPECT_EQ(options_.http_endpoint, ":8080");
  EXPECT_EQ(options_.metrics_address, ":8081");
  EXPECT_EQ(options_.metrics_path, "/m");
  EXPECT_TRUE(options_.automaxprocs);
  EXPECT_EQ(options_.logging.verbosity, 4);
  EXPECT_EQ(options_.logging.format, "json");
}

TEST_F(SnapshotterOptionsTest, BadValuesAreUsageErrors) {
  const struct {
    std::vector<std::string> args;
    const char* message;
  } cases[] = {
      {{"--timeout=5"}, R"(invalid value "5" for flag -timeout: parse error)"},
      {{"--resync-period=1d"}, R"(invalid value "1d" for flag -resync-period: parse error)"},
      {{"--worker-threads=ten"}, R"(invalid value "ten" for flag -worker-threads: parse error)"},
      {{"--snapshot-name-uuid-length=all"},
       R"(invalid value "all" for flag -snapshot-name-uuid-length: parse error)"},
      {{"--node-deployment=maybe"}, R"(invalid boolean value "maybe" for -node-deployment)"},
      {{"--extra-create-metadata=2"}, R"(invalid boolean value "2" for -extra-create-metadata)"},
      {{"--feature-gates=CSIVolumeGroupSnapshot"}, "malformed pair, expect string=bool"},
      {{"--snapshot-name-prefix"}, "flag needs an argument: -snapshot-name-prefix"},
  };
  for (const auto& c : cases) ExpectUsageError(c.args, c.message);
}

// Flags upstream removed (or never had) fail loudly, not silently.
TEST_F(SnapshotterOptionsTest, RemovedAndForeignFlagsAreNotDefined) {
  for (const char* flag :
       {"--enable-volume-group-snapshots", "-connection-timeout=1m", "-snapshotter=x",
        "-create-snapshotcontent-retrycount=5", "-logtostderr", "-resync=1m",
        "-max-grpc-log-length=10", "-enable-distributed-snapshotting"}) {
    ExpectNotDefined(flag);
  }
}

TEST_F(SnapshotterOptionsTest, UsageListsEveryFlagWithItsDefault) {
  const std::string usage = flags_.Usage();
  for (const char* name : {"automaxprocs",
                           "csi-address",
                           "extra-create-metadata",
                           "feature-gates",
                           "groupsnapshot-name-prefix",
                           "groupsnapshot-name-uuid-length",
                           "http-endpoint",
                           "kube-api-burst",
                           "kube-api-qps",
                           "kubeconfig",
                           "leader-election",
                           "leader-election-labels",
                           "leader-election-lease-duration",
                           "leader-election-namespace",
                           "leader-election-renew-deadline",
                           "leader-election-retry-period",
                           "log-flush-frequency",
                           "logging-format",
                           "metrics-address",
                           "metrics-path",
                           "node-deployment",
                           "resync-period",
                           "retry-interval-max",
                           "retry-interval-start",
                           "snapshot-name-prefix",
                           "snapshot-name-uuid-length",
                           "timeout",
                           "v",
                           "version",
                           "vmodule",
                           "worker-threads"}) {
    EXPECT_THAT(usage, HasSubstr("\n  -" + std::string(name))) << name;
  }
  EXPECT_THAT(usage, HasSubstr("-resync-period duration\n"));
  EXPECT_THAT(usage, HasSubstr("(default 15m0s)"));
  EXPECT_THAT(usage, HasSubstr("(default 1m0s)"));
  EXPECT_THAT(usage, HasSubstr(R"((default "snapshot"))"));
  EXPECT_THAT(usage, HasSubstr(R"((default "groupsnapshot"))"));
  EXPECT_THAT(usage, HasSubstr("-worker-threads int\n"));
  // Settable alpha/beta gates are listed; GA ones are not.
  EXPECT_THAT(usage,
              HasSubstr("\n    \tReleaseLeaderElectionOnExit=true|false (ALPHA - default=false)"));
  EXPECT_THAT(usage, Not(HasSubstr("CSIVolumeGroupSnapshot=true|false")));
}

TEST(SnapshotterCheckNodeDeploymentTest, LeaderElectionIsExcluded) {
  Options options;
  options.node_deployment = true;
  EXPECT_TRUE(CheckNodeDeployment(options).ok());
  options.leader_election = true;
  base::Status s = CheckNodeDeployment(options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "Leader election cannot happen when node-deployment is set to true");
  options.node_deployment = false;
  EXPECT_TRUE(CheckNodeDeployment(options).ok());
}

TEST(SnapshotterCheckSnapshotNameTest, EmptyPrefixIsUpstreamsError) {
  Options options;
  options.snapshot_name_prefix = "";
  base::Status s = CheckSnapshotName(options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "Snapshot name prefix cannot be of length 0");
}

// §9.9: upstream panics at the first (group) snapshot; here start-up says
// why, for either name's UUID length.
TEST(SnapshotterCheckSnapshotNameTest, UuidLengthsOutsideMinusOneToThirtyTwoAreRejected) {
  const std::pair<std::string, int64_t Options::*> flags[] = {
      {"snapshot-name-uuid-length", &Options::snapshot_name_uuid_length},
      {"groupsnapshot-name-uuid-length", &Options::groupsnapshot_name_uuid_length}};
  for (const auto& [flag, length_of] : flags) {
    for (int64_t length : {-1, 0, 8, 32}) {
      Options options;
      options.*length_of = length;
      EXPECT_TRUE(CheckSnapshotName(options).ok()) << flag << "=" << length;
    }
    for (int64_t length : {-2, 33, 1000}) {
      Options options;
      options.*length_of = length;
      base::Status s = CheckSnapshotName(options);
      ASSERT_FALSE(s.ok()) << flag << "=" << length;
      EXPECT_EQ(s.error().message,
                "Option -" + flag + " must be between -1 and 32, not " + std::to_string(length));
    }
  }
}

}  // namespace
}  // namespace csisnapshotter
