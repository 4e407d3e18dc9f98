#include "component/run_leading.h"

#include "component/exit_codes.h"
#include "component/leader_election.h"

namespace component {

int RunLeading(const LeaderElectionOptions& options, const kube::Client& client,
               Leadership leadership, const std::function<void(std::stop_token)>& work,
               std::stop_token stop) {
  if (!options.leader_election) {
    work(stop);
    return kExitSuccess;
  }
  base::Result<std::string> identity = leadership.identity();
  if (!identity.ok()) return Fail("Failed to initialize leader election", identity.error());

  LeaderElectionHooks hooks;
  if (leadership.metrics) {
    hooks.on_leading_changed = [metrics = *leadership.metrics](bool leading) {
      metrics.master_status.Set(leading ? 1 : 0);
    };
    hooks.on_slow_path = [metrics = *leadership.metrics] { metrics.slowpath_total.Inc(); };
  }
  const std::string lease_path = leadership.health_per_lease ? leadership.lease_name : "";
  std::shared_ptr<LeaderElection> election = LeaderElection::Create(
      options, client, {std::move(leadership.lease_name), std::move(*identity)}, std::move(hooks));
  leadership.endpoint.ServeLeaderElectionHealth([election] { return election->Check(); },
                                                lease_path);
  return election->Run(work, stop);
}

}  // namespace component
