// The Lease namespace and identity the sidecar uses (BEHAVIOR.md §3).
#include "cmd/csi-attacher/leader_election.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace csiattacher {
namespace {

class LeaderElectionNamespaceTest : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv("POD_NAMESPACE"); }
  void TearDown() override {
    unsetenv("POD_NAMESPACE");
    std::remove(file_.c_str());
  }
  void WriteFile(const std::string& content) { std::ofstream(file_) << content; }

  Options options_;
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

TEST(LeaderElectionIdentityTest, SanitizedTestOverride) {
  setenv("CSI_ATTACHER_LEADER_IDENTITY", "pod.a_1", 1);
  base::Result<std::string> id = LeaderElectionIdentity();
  unsetenv("CSI_ATTACHER_LEADER_IDENTITY");
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, "pod-a-1");
}

TEST(LeaderElectionIdentityTest, HostnameByDefault) {
  base::Result<std::string> id = LeaderElectionIdentity();
  ASSERT_TRUE(id.ok());
  EXPECT_FALSE(id->empty());
}

}  // namespace
}  // namespace csiattacher
