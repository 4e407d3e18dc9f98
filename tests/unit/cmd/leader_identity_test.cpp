// The identity the attacher competes for its Lease with (docs/attacher.md §3).
#include "cmd/csi-attacher/leader_identity.h"

#include <gtest/gtest.h>
#include <limits.h>
#include <unistd.h>

#include <cstdlib>

#include "kube/api/names.h"

namespace csiattacher {
namespace {

TEST(LeaderElectionIdentityTest, SanitizedTestOverride) {
  setenv("CSI_ATTACHER_LEADER_IDENTITY", "pod.a_1", 1);
  base::Result<std::string> id = LeaderElectionIdentity();
  unsetenv("CSI_ATTACHER_LEADER_IDENTITY");
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, "pod-a-1");
}

// The host's name as the kernel reports it, sanitized like the Lease name.
TEST(LeaderElectionIdentityTest, SanitizedHostnameByDefault) {
  unsetenv("CSI_ATTACHER_LEADER_IDENTITY");
  char host[HOST_NAME_MAX + 1] = {};
  ASSERT_EQ(gethostname(host, sizeof host), 0);
  base::Result<std::string> id = LeaderElectionIdentity();
  ASSERT_TRUE(id.ok()) << id.error().message;
  EXPECT_EQ(*id, kube::SanitizeName(host));
}

}  // namespace
}  // namespace csiattacher
