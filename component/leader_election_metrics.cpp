#include "component/leader_election_metrics.h"

namespace component {

LeaderElectionMetrics AddLeaderElectionMetrics(metrics::Registry& registry) {
  metrics::Gauge& master_status =
      registry
          .AddGauge({"leader_election_master_status",
                     "Gauge of if the reporting system is master of the relevant lease, 0 "
                     "indicates backup, 1 indicates master. 'name' is the string used to identify "
                     "the lease. Please make sure to group by name.",
                     metrics::Stability::kAlpha,
                     {"name"}})
          .WithLabels({""});
  metrics::Counter& slowpath_total =
      registry
          .AddCounter({"leader_election_slowpath_total",
                       "Total number of slow path exercised in renewing leader leases. 'name' is "
                       "the string used to identify the lease. Please make sure to group by name.",
                       metrics::Stability::kAlpha,
                       {"name"}})
          .WithLabels({""});
  return {master_status, slowpath_total};
}

}  // namespace component
