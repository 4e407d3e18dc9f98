#include "snapshot/snapshot_clients.h"

#include <utility>

namespace snapshot {

base::Result<SnapshotClients> SnapshotClients::Create(kube::RestConfig config, base::Clock& clock) {
  base::Result<std::unique_ptr<kube::Client>> core = kube::Client::Create(std::move(config), clock);
  if (!core.ok()) return core.error();
  SnapshotClients clients;
  clients.snapshots = (*core)->WithOwnTokenBucket();
  clients.core = std::move(core).value();
  return clients;
}

}  // namespace snapshot
