#include "resizer/resizer_metrics.h"

#include "metrics/process_collector.h"
#include "migration/drivers.h"
#include "resizer/names.h"

namespace resizer {

ResizerMetrics::ResizerMetrics()
    : leader_election_(component::AddLeaderElectionMetrics(registry_)) {
  metrics::RegisterProcessCollector(registry_);
}

void ResizerMetrics::SetDriverName(const std::string& name) {
  // A driver that in-tree volumes migrate to labels its calls `migrated` (§9).
  operations_.SetDriverName(name, migration::IsMigratedCsiDriverByName(name));
}

kube::WorkQueueMetrics& ResizerMetrics::queue(const std::string& driver_name) {
  return queues_.ForQueue(QueueNameFor(driver_name));
}

}  // namespace resizer
