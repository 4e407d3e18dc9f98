// ResizerMetrics: every metric the csi-resizer exposes (docs/resizer.md §7),
// in one registry served on --http-endpoint / --metrics-address:
// csi_sidecar_operations_seconds (component/csi_operation_metrics.h), the
// workqueue_* series of the queue "<driver>-pvc", leader_election_* and
// process_*. Like upstream, no resize-specific metric.
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the CSI connection using CsiHook() and the queue using queue().
#pragma once

#include <string>
#include <vector>

#include "component/csi_operation_metrics.h"
#include "component/leader_election_metrics.h"
#include "component/workqueue_metrics.h"
#include "kube/runtime/work_queue.h"
#include "metrics/registry.h"

namespace resizer {

class ResizerMetrics {
 public:
  ResizerMetrics();
  ResizerMetrics(const ResizerMetrics&) = delete;
  ResizerMetrics& operator=(const ResizerMetrics&) = delete;

  metrics::Registry& registry() { return registry_; }
  csi::MetricsHook CsiHook() { return operations_.Hook(); }
  void SetDriverName(const std::string& name);

  // The queue "<driver>-pvc"'s series.
  kube::WorkQueueMetrics& queue(const std::string& driver_name);
  component::LeaderElectionMetrics leader_election() { return leader_election_; }
  [[nodiscard]] component::ScrapeRegistrations WatchQueues(
      std::vector<const kube::WorkQueue*> queues) {
    return queues_.Watch(std::move(queues));
  }

 private:
  metrics::Registry registry_;
  component::CsiOperationMetrics operations_{registry_};
  component::WorkQueueMetricFamilies queues_{registry_};
  component::LeaderElectionMetrics leader_election_;
};

}  // namespace resizer
