#include "component/sidecar_metric_families.h"

#include "metrics/process_collector.h"

namespace component {

SidecarMetricFamilies::SidecarMetricFamilies()
    : master_status_(registry_.AddGauge(
          {"leader_election_master_status",
           "Gauge of if the reporting system is master of the relevant lease, 0 indicates "
           "backup, 1 indicates master. 'name' is the string used to identify the lease. Please "
           "make sure to group by name.",
           metrics::Stability::kAlpha,
           {"name"}})),
      slowpath_total_(registry_.AddCounter(
          {"leader_election_slowpath_total",
           "Total number of slow path exercised in renewing leader leases. 'name' is the string "
           "used to identify the lease. Please make sure to group by name.",
           metrics::Stability::kAlpha,
           {"name"}})) {
  metrics::RegisterProcessCollector(registry_);
}

LeaderElectionMetrics SidecarMetricFamilies::LeaderElectionFor(const std::string& lease) {
  return {master_status_.WithLabels({lease}), slowpath_total_.WithLabels({lease})};
}

}  // namespace component
