#include "snapshot/snapshot_clients.h"

#include <utility>

#include "component/kube_config.h"

namespace snapshot {

base::Result<SnapshotClients> SnapshotClients::Create(kube::RestConfig config, base::Clock& clock) {
  base::Result<std::unique_ptr<kube::Client>> core = kube::Client::Create(std::move(config), clock);
  if (!core.ok()) return core.error();
  SnapshotClients clients;
  clients.snapshots = (*core)->WithOwnTokenBucket();
  clients.core = std::move(core).value();
  return clients;
}

base::Result<SnapshotClients> SnapshotClients::FromFlags(
    const component::KubeClientOptions& options, std::string_view program) {
  base::Result<kube::RestConfig> config = component::LoadKubeConfig(options, program);
  if (!config.ok()) return config.error();
  if (base::Status s = component::ApplyRateLimits(options, *config); !s.ok()) return s.error();
  return Create(std::move(*config));
}

}  // namespace snapshot
