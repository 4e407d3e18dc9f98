#include "component/kube_config.h"

#include <algorithm>
#include <limits>

#include "component/exit_codes.h"
#include "component/leader_election.h"
#include "kube/client/client.h"

namespace component {

base::Result<kube::RestConfig> LoadKubeConfig(const KubeClientOptions& options,
                                              std::string_view program) {
  base::Result<kube::RestConfig> config = kube::LoadRestConfig(options.kubeconfig, options.master);
  if (config.ok()) config->user_agent = kube::Client::UserAgentFor(program);
  return config;
}

base::Result<KubeApiRateLimits> RateLimitsFor(const KubeClientOptions& options) {
  // client-go keeps QPS as a float32.
  const double qps = static_cast<float>(options.kube_api_qps);
  const int64_t burst = options.kube_api_burst;
  if (qps > 0 && burst <= 0) {
    return base::Error(
        "burst is required to be greater than 0 when RateLimiter is not set and QPS is set to "
        "greater than 0");
  }
  if (qps == 0) return KubeApiRateLimits{5, burst == 0 ? 10 : static_cast<int>(burst)};
  const int64_t int_max = std::numeric_limits<int>::max();
  return KubeApiRateLimits{qps, static_cast<int>(std::min(burst, int_max))};
}

base::Status ApplyRateLimits(const KubeClientOptions& options, kube::RestConfig& config) {
  base::Result<KubeApiRateLimits> limits = RateLimitsFor(options);
  if (!limits.ok()) return limits.error();
  config.qps = limits->qps;
  config.burst = limits->burst;
  return base::Status::Ok();
}

std::unique_ptr<kube::Client> SidecarClientOrExit(const SidecarOptions& options,
                                                  std::string_view program, int& exit_code) {
  base::Result<kube::RestConfig> config = LoadKubeConfig(options, program);
  if (!config.ok()) {
    exit_code = FailFatally(config.error().message);
    return nullptr;
  }
  if (base::Status s = ApplyRateLimits(options, *config); !s.ok()) {
    exit_code = FailFatally(s.error().message);
    return nullptr;
  }
  if (base::Status s = CheckLeaderElection(options); !s.ok()) {
    exit_code = Fail("Failed to initialize leader election", s.error());
    return nullptr;
  }
  base::Result<std::unique_ptr<kube::Client>> client = kube::Client::Create(std::move(*config));
  if (!client.ok()) {
    exit_code = FailFatally(client.error().message);
    return nullptr;
  }
  return std::move(client).value();
}

}  // namespace component
