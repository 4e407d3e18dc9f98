#include "bench/stack.h"

#include "kube/client/config.h"

namespace bench {

base::Status CheckOneBinaryContenders(const BenchOptions& options, const std::string& component) {
  for (const auto& kind : options.contenders) {
    if (kind == "mixed") return base::Error("the " + component + " has no mixed contender");
    if (kind == "upstream" && options.upstream_bin.empty()) {
      return base::Error("upstream needs --upstream-bin");
    }
  }
  return {};
}

base::Status AddIdentity(Cluster& cluster, const testsupport::ServiceAccountIdentity& identity,
                         const std::string& role) {
  auto kubeconfig = cluster.plane->AddServiceAccount(identity);
  if (!kubeconfig.ok()) return kubeconfig.error();
  cluster.kubeconfigs[role] = *kubeconfig;
  return {};
}

base::Result<std::unique_ptr<kube::Client>> FloorClient(const BenchOptions& options,
                                                        const std::string& kubeconfig) {
  auto config = kube::LoadKubeconfig(kubeconfig);
  if (!config.ok()) return config.error();
  config->qps = options.qps;
  config->burst = options.burst;
  return kube::Client::Create(*config);
}

}  // namespace bench
