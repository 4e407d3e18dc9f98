// RunLeading: the last step of every binary's start-up. Without
// --leader-election the work runs at once until `stop`; with it, the work runs
// only while this process holds the Lease (component/leader_election.h), the
// elector reports to `metrics` if given, and `endpoint` serves its health
// check.
// Returns the exit code: 0 after a graceful stop, 1 when leader election
// cannot be set up (logged "Failed to initialize leader election").
#pragma once

#include <functional>
#include <optional>
#include <stop_token>
#include <string>

#include "base/result.h"
#include "component/http_endpoint.h"
#include "component/leader_election_metrics.h"
#include "component/standard_flags.h"
#include "kube/client/client.h"

namespace component {

struct Leadership {
  std::string lease_name;
  // Asked only with --leader-election; a failure ends start-up.
  std::function<base::Result<std::string>()> identity;
  // The sidecars serve leader_election_* metrics; the snapshot-controller's
  // registry has none (docs/snapshots.md §4.6).
  std::optional<LeaderElectionMetrics> metrics;
  HttpEndpoint& endpoint;
  // A process of several Leases (csi-sidecars) also serves this one's
  // check at /healthz/leader-election/<lease>.
  bool health_per_lease = false;
};

// With --leader-election the elector's client is made from `client`
// (LeaderElection::Create).
int RunLeading(const LeaderElectionOptions& options, const kube::Client& client,
               Leadership leadership, const std::function<void(std::stop_token)>& work,
               std::stop_token stop);

}  // namespace component
