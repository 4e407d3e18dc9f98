#include "resizer/claim_queue.h"

#include "resizer/names.h"

namespace resizer {

kube::ControllerOptions ClaimQueueOptions(std::string_view driver,
                                          const component::LoopOptions& loop,
                                          kube::WorkQueueMetrics* metrics) {
  return {.name = QueueNameFor(driver),
          .workers = loop.worker_threads,
          .retry_start = loop.retry_interval_start,
          .retry_max = loop.retry_interval_max,
          .requeue_start = loop.retry_interval_start,
          .requeue_max = loop.retry_interval_max,
          .metrics = metrics};
}

}  // namespace resizer
