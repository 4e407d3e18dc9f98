// The identity a sidecar competes for its Lease with (docs/attacher.md §3,
// docs/snapshots.md §3.2 step 8).
#include "component/leader_identity.h"

#include <gtest/gtest.h>
#include <limits.h>
#include <unistd.h>

#include <cstdlib>

#include "kube/api/names.h"

namespace component {
namespace {

constexpr char kOverride[] = "CSI_SIDECAR_TEST_LEADER_IDENTITY";

TEST(LeaderElectionIdentityTest, SanitizedTestOverride) {
  setenv(kOverride, "pod.a_1", 1);
  base::Result<std::string> id = LeaderElectionIdentity(kOverride);
  unsetenv(kOverride);
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(*id, "pod-a-1");
}

// The host's name as the kernel reports it, sanitized like the Lease name.
TEST(LeaderElectionIdentityTest, SanitizedHostnameByDefault) {
  unsetenv(kOverride);
  char host[HOST_NAME_MAX + 1] = {};
  ASSERT_EQ(gethostname(host, sizeof host), 0);
  base::Result<std::string> id = LeaderElectionIdentity(kOverride);
  ASSERT_TRUE(id.ok()) << id.error().message;
  EXPECT_EQ(*id, kube::SanitizeName(host));
}

}  // namespace
}  // namespace component
