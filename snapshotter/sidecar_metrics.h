// SidecarMetrics: every metric the csi-snapshotter exposes (docs/snapshots.md
// §3.7), in one registry served on --http-endpoint / --metrics-address:
//   - csi_sidecar_operations_seconds (component/csi_operation_metrics.h),
//     labelled with the driver's own name once GetPluginInfo has answered
//     (§9.10; "unknown-driver" before), never with `migrated`;
//   - workqueue_* for csi-snapshotter-content, present (at 0) from the start,
//     and for csi-snapshotter-groupsnapshotcontent once group snapshots run
//     (upstream creates that queue only then);
//   - leader_election_master_status / leader_election_slowpath_total;
//   - process_* (process_start_time_seconds ALPHA).
// Upstream's Go runtime metrics have no C++ counterpart.
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the CSI connection using CsiHook() and the queues using
// content_queue() and group_content_queue().
#pragma once

#include <string>

#include "component/leader_election_metrics.h"
#include "component/sidecar_metric_families.h"
#include "component/workqueue_metrics.h"
#include "metrics/registry.h"
#include "snapshotter/content_controller.h"

namespace snapshotter {

class SidecarMetrics {
 public:
  SidecarMetrics();
  // Uses `shared` (csi-sidecars), which must outlive this object.
  explicit SidecarMetrics(component::SidecarMetricFamilies& shared);
  SidecarMetrics(const SidecarMetrics&) = delete;
  SidecarMetrics& operator=(const SidecarMetrics&) = delete;

  metrics::Registry& registry() { return families_->registry(); }

  // For csi::ConnectOptions::metrics.
  csi::MetricsHook CsiHook() { return families_->operations().Hook(); }
  // The driver named itself (GetPluginInfo): later calls carry its name.
  void SetDriverName(const std::string& name);

  kube::WorkQueueMetrics& content_queue();
  // Its series appear with the first call.
  kube::WorkQueueMetrics& group_content_queue();
  component::LeaderElectionMetrics leader_election() { return families_->LeaderElectionFor(""); }

  // The queues' scrape-time gauges, while the result lives (it must go
  // before the controllers); `groups` may be null.
  [[nodiscard]] component::ScrapeRegistrations WatchController(
      const ContentController& controller, const GroupContentController* groups = nullptr);

 private:
  component::OwnOrSharedFamilies families_;
};

}  // namespace snapshotter
