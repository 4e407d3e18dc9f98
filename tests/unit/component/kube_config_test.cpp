// The client config from the connection flags: client-go's meaning of
// --kube-api-qps/--kube-api-burst, and the user agent naming the binary.
#include "component/kube_config.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/version.h"
#include "tests/support/temp_dir.h"

namespace component {
namespace {

TEST(RateLimitsForTest, ClientGoMeaningOfQpsAndBurst) {
  const struct {
    double qps;
    int64_t burst;
    bool ok;
    double want_qps;
    int want_burst;
  } cases[] = {
      {5, 10, true, 5, 10}, {50.5, 100, true, 50.5, 100}, {0, 0, true, 5, 10},
      {0, 20, true, 5, 20}, {-1, 0, true, -1, 0},         {5, 0, false, 0, 0},
      {5, -1, false, 0, 0},
  };
  for (const auto& c : cases) {
    KubeClientOptions options;
    options.kube_api_qps = c.qps;
    options.kube_api_burst = c.burst;
    base::Result<KubeApiRateLimits> limits = RateLimitsFor(options);
    ASSERT_EQ(limits.ok(), c.ok) << c.qps << "/" << c.burst;
    if (!c.ok) {
      EXPECT_EQ(limits.error().message,
                "burst is required to be greater than 0 when RateLimiter is not set and QPS is "
                "set to greater than 0");
      continue;
    }
    EXPECT_EQ(limits->qps, c.want_qps) << c.qps << "/" << c.burst;
    EXPECT_EQ(limits->burst, c.want_burst) << c.qps << "/" << c.burst;
  }
}

TEST(LoadKubeConfigTest, UserAgentNamesTheRunningBinary) {
  test::TempDir dir;
  KubeClientOptions options;
  options.kubeconfig = (dir.path() / "kubeconfig").string();
  std::ofstream(options.kubeconfig)
      << "apiVersion: v1\nkind: Config\ncurrent-context: main\n"
         "clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n"
         "users:\n- name: u\n  user:\n    token: t\n"
         "contexts:\n- name: main\n  context:\n    cluster: c\n    user: u\n";
  base::Result<kube::RestConfig> config = LoadKubeConfig(options, "/usr/bin/csi-snapshotter");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->user_agent, "csi-snapshotter/" + std::string(base::Version()));
}

}  // namespace
}  // namespace component
