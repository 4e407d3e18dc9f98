#include "resizer/resizer_metrics.h"

#include "metrics/process_collector.h"
#include "resizer/names.h"

namespace resizer {

ResizerMetrics::ResizerMetrics()
    : leader_election_(component::AddLeaderElectionMetrics(registry_)) {
  metrics::RegisterProcessCollector(registry_);
}

void ResizerMetrics::SetDriverName(const std::string& name) {
  // In-tree migration is not handled, so no `migrated` label (§9).
  operations_.SetDriverName(name, /*migrated_label=*/false);
}

kube::WorkQueueMetrics& ResizerMetrics::queue(const std::string& driver_name) {
  return queues_.ForQueue(QueueNameFor(driver_name));
}

}  // namespace resizer
