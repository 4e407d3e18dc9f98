// csi-sidecars' command line: the sidecar flags given once, --controllers,
// --timeout and --max-grpc-log-length, and each part's own flags under its
// name as prefix - among them its API budget, --<name>-kube-api-qps and
// --<name>-kube-api-burst, the shared --kube-api-qps and --kube-api-burst
// unless given. The feature gates accepted are those of every part.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/flags.h"
#include "base/result.h"
#include "component/controller_part.h"
#include "component/feature_gates.h"
#include "component/kube_config.h"
#include "component/standard_flags.h"

namespace sidecars {

// A part's own --<name>-kube-api-qps and --<name>-kube-api-burst.
struct ApiBudget {
  double kube_api_qps = 0;
  int64_t kube_api_burst = 0;
};

struct Options : component::SidecarOptions {
  std::string controllers;
  std::chrono::nanoseconds timeout{0};  // only when given: flags.IsSet("timeout")
  int64_t max_grpc_log_length = -1;
  std::vector<ApiBudget> budgets;  // one per part, in order; only where given
};

// Every gate some part accepts, each once, sorted by name.
std::vector<component::FeatureSpec> UnionOfFeatureSpecs(
    const std::vector<std::unique_ptr<component::ControllerPart>>& parts);

// The process's flags on `flags`, and each part's on a prefixed view kept in
// `views` (one per part, in order); `options` and the parts outlive `flags`.
void RegisterFlags(base::FlagSet& flags, Options& options,
                   const std::vector<std::unique_ptr<component::ControllerPart>>& parts,
                   std::vector<std::unique_ptr<base::FlagSet>>& views);

// The rate limits of part `index`'s API client, whose flags are on `view`:
// its own budget where given, else the shared one; the error names the part.
base::Result<component::KubeApiRateLimits> ApiLimitsOf(const Options& options, size_t index,
                                                       const base::FlagSet& view,
                                                       std::string_view part_name);

// The parts --controllers names, by index into `parts`, or the error: none
// named, an unknown name, or a flag of a part not named among `args`.
base::Result<std::vector<size_t>> SelectedParts(
    const Options& options, const std::vector<std::string>& args,
    const std::vector<std::unique_ptr<component::ControllerPart>>& parts);

}  // namespace sidecars
