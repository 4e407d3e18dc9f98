#include "sidecars/command_line.h"

#include <algorithm>
#include <set>

#include "base/ascii.h"

namespace sidecars {
namespace {

std::string KnownNames(const std::vector<std::unique_ptr<component::ControllerPart>>& parts) {
  std::string names;
  for (const auto& part : parts) {
    if (!names.empty()) names += ", ";
    names += part->name();
  }
  return names;
}

// The flag `arg` names ("--attacher-timeout=1s" → "attacher-timeout"), or "".
std::string FlagNameOf(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return "";
  std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
  return name.substr(0, name.find('='));
}

// A part's own API budget on its prefixed view.
void RegisterBudgetFlags(base::FlagSet& view, ApiBudget& budget) {
  view.Float64("kube-api-qps", &budget.kube_api_qps, budget.kube_api_qps,
               "This controller's own sustained requests per second to the API server. Unset: "
               "--kube-api-qps.");
  view.Int("kube-api-burst", &budget.kube_api_burst, budget.kube_api_burst,
           "This controller's own burst above its QPS. Unset: --kube-api-burst.");
}

}  // namespace

std::vector<component::FeatureSpec> UnionOfFeatureSpecs(
    const std::vector<std::unique_ptr<component::ControllerPart>>& parts) {
  std::vector<component::FeatureSpec> all;
  std::set<std::string_view> seen;
  for (const auto& part : parts) {
    for (const component::FeatureSpec& spec : part->feature_specs()) {
      if (seen.insert(spec.name).second) all.push_back(spec);
    }
  }
  return component::SortedByName(std::move(all));
}

void RegisterFlags(base::FlagSet& flags, Options& o,
                   const std::vector<std::unique_ptr<component::ControllerPart>>& parts,
                   std::vector<std::unique_ptr<base::FlagSet>>& views) {
  component::RegisterSidecarFlags(flags, o, component::FeatureGates(UnionOfFeatureSpecs(parts)));
  component::RegisterMasterFlag(flags, o);
  flags.String("controllers", &o.controllers, o.controllers,
               "Comma-separated controllers to run: any of " + KnownNames(parts) +
                   ". Each one's own flags carry its name as prefix (--attacher-timeout).");
  flags.Duration("timeout", &o.timeout, o.timeout,
                 "Default deadline of each controller's CSI calls; --<controller>-timeout wins. "
                 "Unset: each controller's own default.");
  flags.Int("max-grpc-log-length", &o.max_grpc_log_length, o.max_grpc_log_length,
            "Most characters of a gRPC response written to the log; 0 or less means all.");
  o.budgets.resize(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    views.push_back(std::make_unique<base::FlagSet>(flags, std::string(parts[i]->name()) + "-"));
    RegisterBudgetFlags(*views.back(), o.budgets[i]);
    parts[i]->RegisterFlags(*views.back());
  }
}

base::Result<component::KubeApiRateLimits> ApiLimitsOf(const Options& options, size_t index,
                                                       const base::FlagSet& view,
                                                       std::string_view part_name) {
  component::KubeClientOptions client = options;
  const ApiBudget& own = options.budgets.at(index);
  if (view.IsSet("kube-api-qps")) client.kube_api_qps = own.kube_api_qps;
  if (view.IsSet("kube-api-burst")) client.kube_api_burst = own.kube_api_burst;
  base::Result<component::KubeApiRateLimits> limits = component::RateLimitsFor(client);
  if (!limits.ok()) {
    return base::Error("the " + std::string(part_name) +
                       " controller's API budget: " + limits.error().message);
  }
  return limits;
}

base::Result<std::vector<size_t>> SelectedParts(
    const Options& options, const std::vector<std::string>& args,
    const std::vector<std::unique_ptr<component::ControllerPart>>& parts) {
  std::vector<size_t> selected;
  std::string_view rest = options.controllers;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view entry = base::TrimSpace(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (entry.empty()) continue;
    auto it = std::find_if(parts.begin(), parts.end(),
                           [&](const auto& part) { return part->name() == entry; });
    if (it == parts.end()) {
      return base::Error("--controllers: unknown controller \"" + std::string(entry) +
                         "\" (known: " + KnownNames(parts) + ")");
    }
    const size_t index = static_cast<size_t>(it - parts.begin());
    if (std::find(selected.begin(), selected.end(), index) == selected.end()) {
      selected.push_back(index);
    }
  }
  if (selected.empty()) {
    return base::Error("--controllers must name at least one of " + KnownNames(parts));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (std::find(selected.begin(), selected.end(), i) != selected.end()) continue;
    const std::string prefix = std::string(parts[i]->name()) + "-";
    for (const std::string& arg : args) {
      if (std::string flag = FlagNameOf(arg); flag.starts_with(prefix)) {
        return base::Error("flag --" + flag + " belongs to the " + std::string(parts[i]->name()) +
                           " controller, which --controllers does not select");
      }
    }
  }
  return selected;
}

}  // namespace sidecars
