// The flag groups of component/standard_flags.h: each Register function adds
// exactly its group, so the snapshot-controller (docs/snapshots.md §4.1) gets
// the leader election and HTTP groups without csi-lib-utils' extra
// --leader-election-labels and --metrics-address, which the sidecars keep.
#include "component/standard_flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

namespace component {
namespace {

using ::testing::ElementsAre;

// The flag names `register_flags` adds, in usage order (sorted).
std::vector<std::string> FlagsOf(const std::function<void(base::FlagSet&)>& register_flags) {
  std::ostringstream output;
  base::FlagSet flags("test", &output);
  register_flags(flags);
  std::vector<std::string> names;
  std::istringstream lines(flags.Usage());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  -", 0) == 0) names.push_back(line.substr(3, line.find(' ', 3) - 3));
  }
  return names;
}

TEST(StandardFlagsTest, LeaderElectionGroupHasNoLabels) {
  LeaderElectionOptions options;
  EXPECT_THAT(
      FlagsOf([&](base::FlagSet& f) { RegisterLeaderElectionFlags(f, options); }),
      ElementsAre("leader-election", "leader-election-lease-duration", "leader-election-namespace",
                  "leader-election-renew-deadline", "leader-election-retry-period"));
  EXPECT_THAT(FlagsOf([&](base::FlagSet& f) { RegisterLeaderElectionLabelsFlag(f, options); }),
              ElementsAre("leader-election-labels"));
}

TEST(StandardFlagsTest, HttpEndpointGroupHasNoMetricsAddress) {
  HttpEndpointOptions options;
  EXPECT_THAT(FlagsOf([&](base::FlagSet& f) { RegisterHttpEndpointFlags(f, options); }),
              ElementsAre("http-endpoint", "metrics-path"));
  EXPECT_THAT(FlagsOf([&](base::FlagSet& f) { RegisterMetricsAddressFlag(f, options); }),
              ElementsAre("metrics-address"));
}

TEST(StandardFlagsTest, SidecarFlagsKeepLabelsMetricsAddressAndCsiAddress) {
  SidecarOptions options;
  FeatureGates gates(std::vector<FeatureSpec>{});
  std::vector<std::string> names =
      FlagsOf([&](base::FlagSet& f) { RegisterSidecarFlags(f, options, gates); });
  for (const char* name : {"leader-election", "leader-election-labels", "http-endpoint",
                           "metrics-address", "metrics-path", "csi-address", "kubeconfig",
                           "kube-api-qps", "kube-api-burst", "feature-gates", "version"}) {
    EXPECT_THAT(names, ::testing::Contains(name)) << name;
  }
}

}  // namespace
}  // namespace component
