// docs/attacher.md §1.1/§1.2: every upstream flag, with its Go syntax and default,
// and the attacher's own check made after parsing.
#include "attacher/command/options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/cmd/flags_test_fixture.h"

namespace csiattacher {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

class OptionsTest : public cmdtest::FlagsTest<Options, RegisterFlags> {
 protected:
  OptionsTest() : FlagsTest("csi-attacher") {}
};

TEST_F(OptionsTest, DefaultsMatchUpstream) {
  ASSERT_EQ(Parse({}), -1) << output_.str();
  ExpectStandardDefaults();
  EXPECT_EQ(options_.resync, minutes(10));
  EXPECT_EQ(options_.timeout, seconds(15));
  EXPECT_EQ(options_.worker_threads, 10u);
  EXPECT_EQ(options_.max_entries, 0);
  EXPECT_EQ(options_.default_fstype, "");
  EXPECT_EQ(options_.reconcile_sync, minutes(1));
  EXPECT_EQ(options_.max_grpc_log_length, -1);
}

TEST_F(OptionsTest, EveryFlagParsesWithGoSyntax) {
  ASSERT_EQ(Parse({"--resync=1h30m",
                   "-timeout",
                   "1.5s",
                   "--retry-interval-start=300ms",
                   "--retry-interval-max",
                   "2m",
                   "-worker-threads=0x20",
                   "--max-entries=1_000",
                   "--default-fstype=xfs",
                   "--reconcile-sync=-1m",
                   "--max-grpc-log-length=017",
                   "--feature-gates=MutableCSINodeAllocatableCount=false",
                   "--feature-gates",
                   " WatchList=true , ",
                   "--version=false",
                   "--kubeconfig=/etc/kube/config",
                   "--csi-address",
                   "unix:///csi/csi.sock",
                   "--kube-api-qps=1e2",
                   "--kube-api-burst=-0x10",
                   "-leader-election",
                   "--leader-election-namespace=kube-system",
                   "--leader-election-lease-duration=30s",
                   "--leader-election-renew-deadline=20s",
                   "--leader-election-retry-period=2s",
                   "--leader-election-labels=a:b,c:d",
                   "--leader-election-labels=e:f",
                   "--http-endpoint=:8080",
                   "--metrics-address=:8081",
                   "--metrics-path=/m",
                   "--automaxprocs",
                   "-v=4",
                   "--logging-format=json",
                   "--log-flush-frequency=1s"}),
            -1)
      << output_.str();
  EXPECT_EQ(options_.resync, minutes(90));
  EXPECT_EQ(options_.timeout, milliseconds(1500));
  EXPECT_EQ(options_.retry_interval_start, milliseconds(300));
  EXPECT_EQ(options_.retry_interval_max, minutes(2));
  EXPECT_EQ(options_.worker_threads, 32u);
  EXPECT_EQ(options_.max_entries, 1000);
  EXPECT_EQ(options_.default_fstype, "xfs");
  EXPECT_EQ(options_.reconcile_sync, minutes(-1));  // negatives are not validated
  EXPECT_EQ(options_.max_grpc_log_length, 15);      // leading 0: octal
  // Repeated map flags merge.
  EXPECT_THAT(options_.feature_gates,
              ElementsAre(Pair("MutableCSINodeAllocatableCount", false), Pair("WatchList", true)));
  EXPECT_FALSE(options_.show_version);
  EXPECT_EQ(options_.kubeconfig, "/etc/kube/config");
  EXPECT_EQ(options_.csi_address, "unix:///csi/csi.sock");
  EXPECT_EQ(options_.kube_api_qps, 100.0);
  EXPECT_EQ(options_.kube_api_burst, -16);
  EXPECT_TRUE(options_.leader_election);
  EXPECT_EQ(options_.leader_election_namespace, "kube-system");
  EXPECT_EQ(options_.leader_election_lease_duration, seconds(30));
  EXPECT_EQ(options_.leader_election_renew_deadline, seconds(20));
  EXPECT_EQ(options_.leader_election_retry_period, seconds(2));
  EXPECT_THAT(options_.leader_election_labels,
              ElementsAre(Pair("a", "b"), Pair("c", "d"), Pair("e", "f")));
  EXPECT_EQ(options_.http_endpoint, ":8080");
  EXPECT_EQ(options_.metrics_address, ":8081");
  EXPECT_EQ(options_.metrics_path, "/m");
  EXPECT_TRUE(options_.automaxprocs);
  EXPECT_EQ(options_.logging.verbosity, 4);
  EXPECT_EQ(options_.logging.format, "json");
  EXPECT_EQ(options_.logging.flush_frequency, seconds(1));
}

TEST_F(OptionsTest, LastValueOfARepeatedScalarWins) {
  ASSERT_EQ(Parse({"--timeout=1s", "--timeout=2s"}), -1);
  EXPECT_EQ(options_.timeout, seconds(2));
}

TEST_F(OptionsTest, BadValuesAreUsageErrors) {
  const struct {
    std::vector<std::string> args;
    const char* message;
  } cases[] = {
      {{"--timeout=5"}, R"(invalid value "5" for flag -timeout: parse error)"},
      {{"--resync=1d"}, R"(invalid value "1d" for flag -resync: parse error)"},
      {{"--worker-threads=-1"}, R"(invalid value "-1" for flag -worker-threads: parse error)"},
      {{"--max-entries=ten"}, R"(invalid value "ten" for flag -max-entries: parse error)"},
      {{"--kube-api-qps=fast"}, R"(invalid value "fast" for flag -kube-api-qps: parse error)"},
      {{"--leader-election=maybe"}, R"(invalid boolean value "maybe" for -leader-election)"},
      {{"--feature-gates=WatchList"}, "malformed pair, expect string=bool"},
      {{"--leader-election-labels=a:b:c"}, "malformed item in list of labels: a:b:c"},
      {{"--timeout"}, "flag needs an argument: -timeout"},
  };
  for (const auto& c : cases) ExpectUsageError(c.args, c.message);
}

// Flags that upstream dropped long ago must fail loudly, not be ignored.
TEST_F(OptionsTest, RemovedFlagsAreNotDefined) {
  for (const char* flag :
       {"-logtostderr", "-alsologtostderr", "-log_dir=/tmp", "-connection-timeout=1m",
        "-leader-election-type=leases", "-leader-election-identity=x", "-dummy"}) {
    ExpectNotDefined(flag);
  }
}

TEST_F(OptionsTest, UsageListsEveryFlagWithItsDefault) {
  const std::string usage = flags_.Usage();
  for (const char* name : {"automaxprocs",
                           "csi-address",
                           "default-fstype",
                           "feature-gates",
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
                           "log-json-info-buffer-size",
                           "log-json-split-stream",
                           "log-text-info-buffer-size",
                           "log-text-split-stream",
                           "logging-format",
                           "max-entries",
                           "max-grpc-log-length",
                           "metrics-address",
                           "metrics-path",
                           "reconcile-sync",
                           "resync",
                           "retry-interval-max",
                           "retry-interval-start",
                           "timeout",
                           "v",
                           "version",
                           "vmodule",
                           "worker-threads"}) {
    EXPECT_THAT(usage, HasSubstr("\n  -" + std::string(name))) << name;
  }
  EXPECT_THAT(usage, HasSubstr("-csi-address string\n"));
  EXPECT_THAT(usage, HasSubstr(R"((default "/run/csi/socket"))"));
  EXPECT_THAT(usage, HasSubstr("-timeout duration\n"));
  EXPECT_THAT(usage, HasSubstr("(default 15s)"));
  EXPECT_THAT(usage, HasSubstr("-worker-threads uint\n"));
  EXPECT_THAT(usage, HasSubstr("(default 10)"));
  EXPECT_THAT(usage, HasSubstr("(default -1)"));
  EXPECT_THAT(usage, HasSubstr("-kube-api-qps float\n"));
  // Settable alpha/beta gates are listed; GA ones are not.
  EXPECT_THAT(usage,
              HasSubstr("\n    \tReleaseLeaderElectionOnExit=true|false (ALPHA - default=false)"));
  EXPECT_THAT(usage, Not(HasSubstr("MutableCSINodeAllocatableCount")));
}

TEST(CheckWorkerThreadsTest, ZeroIsRejected) {
  Options options;
  EXPECT_TRUE(CheckWorkerThreads(options).ok());
  options.worker_threads = 0;
  base::Status s = CheckWorkerThreads(options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "Option -worker-threads must be greater than zero");
}

}  // namespace
}  // namespace csiattacher
