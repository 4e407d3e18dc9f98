#include "resizer/resizer_metrics.h"

#include "migration/drivers.h"
#include "resizer/names.h"

namespace resizer {

ResizerMetrics::ResizerMetrics() = default;

ResizerMetrics::ResizerMetrics(component::SidecarMetricFamilies& shared) : families_(shared) {}

void ResizerMetrics::SetDriverName(const std::string& name) {
  // A driver that in-tree volumes migrate to labels its calls `migrated` (§9).
  families_->operations().SetDriverName(name, migration::IsMigratedCsiDriverByName(name));
}

kube::WorkQueueMetrics& ResizerMetrics::queue(const std::string& driver_name) {
  return families_->queues().ForQueue(QueueNameFor(driver_name));
}

}  // namespace resizer
