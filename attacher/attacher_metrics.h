// AttacherMetrics: every metric the attacher exposes (docs/attacher.md §4), in one
// registry served on --http-endpoint / --metrics-address:
//   - csi_sidecar_operations_seconds (component/csi_operation_metrics.h), with
//     the `migrated` label only for the seven CSI-migration drivers;
//   - workqueue_* for csi-attacher-va and csi-attacher-pv;
//   - leader_election_master_status / leader_election_slowpath_total;
//   - process_* (process_start_time_seconds ALPHA);
//   - beyond upstream (#706): csi_attacher_oldest_pending_volumeattachment_seconds
//     and csi_attacher_volumeattachments{state}, computed at scrape time from
//     the VolumeAttachment store (va_census.h).
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the CSI connection using CsiHook() and the queues using the queue
// observers.
#pragma once

#include <string>

#include "attacher/controller.h"
#include "component/leader_election_metrics.h"
#include "component/sidecar_metric_families.h"
#include "component/workqueue_metrics.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/store.h"
#include "metrics/registry.h"

namespace attacher {

class AttacherMetrics {
 public:
  AttacherMetrics();
  // Adds the attacher's own families to `shared` (csi-sidecars), which must
  // outlive this object.
  explicit AttacherMetrics(component::SidecarMetricFamilies& shared);
  AttacherMetrics(const AttacherMetrics&) = delete;
  AttacherMetrics& operator=(const AttacherMetrics&) = delete;

  metrics::Registry& registry() { return families_->registry(); }

  // For csi::ConnectOptions::metrics.
  csi::MetricsHook CsiHook() { return families_->operations().Hook(); }
  // The driver named itself (GetPluginInfo): later calls carry its name.
  void SetDriverName(const std::string& name);

  kube::WorkQueueMetrics& volume_attachment_queue();
  kube::WorkQueueMetrics& persistent_volume_queue();
  component::LeaderElectionMetrics leader_election() { return families_->LeaderElectionFor(""); }

  // The queues' and the VolumeAttachments' scrape-time gauges, while the
  // result lives (it must go before `controller` and `volume_attachments`).
  [[nodiscard]] component::ScrapeRegistrations WatchController(
      const Controller& controller, const kube::Store<kube::VolumeAttachment>& volume_attachments,
      const std::string& driver_name);

 private:
  void AddOwnFamilies();

  component::OwnOrSharedFamilies families_;
  metrics::FunctionFamily* oldest_pending_ = nullptr;
  metrics::FunctionFamily* attachments_by_state_ = nullptr;
};

}  // namespace attacher
