// ClaimQueueOptions: the queue both of the resizer's controllers run on
// (docs/resizer.md §4.5, §5.5): named "<driver>-pvc" as upstream's two are,
// --workers workers, and the error backoff and requeue delays of
// --retry-interval-start / --retry-interval-max.
#pragma once

#include <string_view>

#include "component/loop_options.h"
#include "kube/runtime/reconcile_loop.h"
#include "kube/runtime/work_queue.h"

namespace resizer {

// `metrics` may be null.
kube::ControllerOptions ClaimQueueOptions(std::string_view driver,
                                          const component::LoopOptions& loop,
                                          kube::WorkQueueMetrics* metrics);

}  // namespace resizer
