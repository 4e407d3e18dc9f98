// SnapshotClients: the API clients of a snapshot binary, one per clientset
// upstream builds from its one rest.Config (docs/snapshots.md §3.2 step 1,
// §4.1): `core` for the built-in kinds (claims, volumes, nodes, Secrets,
// Events) and `snapshots` for snapshot.storage.k8s.io and
// groupsnapshot.storage.k8s.io (informers, writes and the CRD checks). Each
// has a token bucket of its own, so --kube-api-qps / --kube-api-burst bound
// each of them, not their sum; both share one connection pool. Leader
// election's client is a third (component/leader_election.h).
#pragma once

#include <memory>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "component/standard_flags.h"
#include "kube/client/client.h"
#include "kube/client/config.h"

namespace snapshot {

struct SnapshotClients {
  std::unique_ptr<kube::Client> core;
  std::unique_ptr<kube::Client> snapshots;

  // Fails as kube::Client::Create does.
  static base::Result<SnapshotClients> Create(kube::RestConfig config,
                                              base::Clock& clock = base::Clock::Real());

  // The clients of the binary `program` (argv[0]) from --kubeconfig,
  // --kube-api-qps and --kube-api-burst (component/kube_config.h). Fails with
  // the error of the step that failed: the config, the rate limits, Create.
  static base::Result<SnapshotClients> FromFlags(const component::KubeClientOptions& options,
                                                 std::string_view program);
};

}  // namespace snapshot
