// The Lease namespace the binaries use, the lease durations client-go's
// leader elector accepts, and the elector's client of its own.
#include "component/leader_election.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "kube/client/client.h"
#include "tests/support/scripted_http_server.h"
#include "tests/support/throttle_probe.h"

namespace component {
namespace {

using std::chrono::seconds;

class LeaderElectionNamespaceTest : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv("POD_NAMESPACE"); }
  void TearDown() override {
    unsetenv("POD_NAMESPACE");
    std::remove(file_.c_str());
  }
  void WriteFile(const std::string& content) { std::ofstream(file_) << content; }

  LeaderElectionOptions options_;
  std::string file_ = ::testing::TempDir() + "/le-namespace-" + std::to_string(getpid());
};

TEST_F(LeaderElectionNamespaceTest, FlagWins) {
  options_.leader_election_namespace = "flag-ns";
  setenv("POD_NAMESPACE", "env-ns", 1);
  WriteFile("file-ns\n");
  EXPECT_EQ(LeaderElectionNamespace(options_, file_), "flag-ns");
}

TEST_F(LeaderElectionNamespaceTest, ThenPodNamespace) {
  setenv("POD_NAMESPACE", "env-ns", 1);
  WriteFile("file-ns\n");
  EXPECT_EQ(LeaderElectionNamespace(options_, file_), "env-ns");
}

TEST_F(LeaderElectionNamespaceTest, ThenTheTrimmedServiceAccountFile) {
  WriteFile("  file-ns\n");
  EXPECT_EQ(LeaderElectionNamespace(options_, file_), "file-ns");
}

TEST_F(LeaderElectionNamespaceTest, ElseDefault) {
  EXPECT_EQ(LeaderElectionNamespace(options_, file_), "default");
}

TEST(CheckLeaderElectionTest, DurationsMatterOnlyWithLeaderElection) {
  LeaderElectionOptions options;
  options.leader_election_lease_duration = seconds(1);
  EXPECT_TRUE(CheckLeaderElection(options).ok());
  options.leader_election = true;
  EXPECT_EQ(CheckLeaderElection(options).error().message,
            "leaseDuration must be greater than renewDeadline");
}

TEST(CheckLeaderElectionTest, ClientGoRules) {
  const struct {
    seconds lease, renew, retry;
    const char* message;  // empty: valid
  } cases[] = {
      {seconds(15), seconds(10), seconds(5), ""},
      {seconds(10), seconds(10), seconds(5), "leaseDuration must be greater than renewDeadline"},
      {seconds(15), seconds(6), seconds(5),
       "renewDeadline must be greater than retryPeriod*JitterFactor"},
      {seconds(15), seconds(7), seconds(5), ""},
      {seconds(15), seconds(10), seconds(0), "retryPeriod must be greater than zero"},
      {seconds(15), seconds(0), seconds(-1), "renewDeadline must be greater than zero"},
  };
  for (const auto& c : cases) {
    LeaderElectionOptions options;
    options.leader_election = true;
    options.leader_election_lease_duration = c.lease;
    options.leader_election_renew_deadline = c.renew;
    options.leader_election_retry_period = c.retry;
    base::Status s = CheckLeaderElection(options);
    if (std::string(c.message).empty()) {
      EXPECT_TRUE(s.ok()) << s.error().message;
    } else {
      ASSERT_FALSE(s.ok()) << c.message;
      EXPECT_EQ(s.error().message, c.message);
    }
  }
}

// As upstream's leader election clientset: the elector's requests never
// wait behind the work's, even when the work has spent every token of the
// binary's client.
TEST(LeaderElectionClientTest, LeaseRequestsDoNotWaitForTheWorksTokens) {
  const std::string lease =
      R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"lease-1",)"
      R"("namespace":"ns","resourceVersion":"1"},"spec":{"holderIdentity":"me"}})";
  // The elector's own bucket holds its few requests (GET, POST, renewals,
  // the release) many times over.
  constexpr int kBurst = 20;
  testsupport::ScriptedHttpServer server;
  for (int i = 0; i < kBurst; ++i) server.Script({200, {}, {"{}"}});  // the work's requests
  server.Script({404, {}, {testsupport::StatusBody(404, "NotFound", "not found")}});
  server.Script({201, {}, {lease}});                              // created: leading
  for (int i = 0; i < 5; ++i) server.Script({200, {}, {lease}});  // renewals, the release
  base::FakeClock clock;
  kube::RestConfig config;
  config.server = server.url();
  config.qps = 1;
  config.burst = kBurst;
  auto client = kube::Client::Create(config, clock);
  ASSERT_TRUE(client.ok()) << client.error().message;
  for (int i = 0; i < kBurst; ++i) {
    ASSERT_TRUE(testsupport::PassesUnthrottled(
        clock, [&] { ASSERT_TRUE((*client)->Request("GET", "/version").ok()); }));
  }

  LeaderElectionOptions options;
  options.leader_election = true;
  options.leader_election_namespace = "ns";
  std::shared_ptr<LeaderElection> election =
      LeaderElection::Create(options, **client, {"lease-1", "me"}, {});
  std::stop_source stop;
  bool led = false;
  EXPECT_TRUE(testsupport::PassesUnthrottled(clock, [&] {
    EXPECT_EQ(election->Run(
                  [&](std::stop_token) {
                    led = true;
                    stop.request_stop();
                  },
                  stop.get_token()),
              0);
  })) << "a Lease request waited for a token of the work's client";
  EXPECT_TRUE(led);
  auto requests = server.requests();
  ASSERT_GE(requests.size(), kBurst + 2u);
  EXPECT_EQ(requests[kBurst + 1].method, "POST");
  EXPECT_EQ(requests[kBurst + 1].target, "/apis/coordination.k8s.io/v1/namespaces/ns/leases");
}

}  // namespace
}  // namespace component
