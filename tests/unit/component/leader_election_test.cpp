// The Lease namespace the binaries use, and the lease durations client-go's
// leader elector accepts.
#include "component/leader_election.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

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

}  // namespace
}  // namespace component
