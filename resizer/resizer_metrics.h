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

#include "component/leader_election_metrics.h"
#include "component/sidecar_metric_families.h"
#include "component/workqueue_metrics.h"
#include "kube/runtime/work_queue.h"
#include "metrics/registry.h"

namespace resizer {

class ResizerMetrics {
 public:
  ResizerMetrics();
  // Uses `shared` (csi-sidecars), which must outlive this object.
  explicit ResizerMetrics(component::SidecarMetricFamilies& shared);
  ResizerMetrics(const ResizerMetrics&) = delete;
  ResizerMetrics& operator=(const ResizerMetrics&) = delete;

  metrics::Registry& registry() { return families_->registry(); }
  csi::MetricsHook CsiHook() { return families_->operations().Hook(); }
  void SetDriverName(const std::string& name);

  // The queue "<driver>-pvc"'s series.
  kube::WorkQueueMetrics& queue(const std::string& driver_name);
  component::LeaderElectionMetrics leader_election() { return families_->LeaderElectionFor(""); }
  [[nodiscard]] component::ScrapeRegistrations WatchQueues(
      std::vector<const kube::WorkQueue*> queues) {
    return families_->queues().Watch(std::move(queues));
  }

 private:
  component::OwnOrSharedFamilies families_;
};

}  // namespace resizer
