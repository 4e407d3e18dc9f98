// AttacherMetrics: every metric the sidecar exposes (BEHAVIOR.md §4), in one
// registry served on --http-endpoint / --metrics-address:
//   - csi_sidecar_operations_seconds (ALPHA), fed by the CSI connection's
//     metrics hook; driver_name is "unknown-driver" until SetDriverName (the
//     real name from GetPluginInfo, BEHAVIOR.md §7), and the `migrated` label
//     exists only for the seven CSI-migration drivers;
//   - workqueue_* (BETA) for csi-attacher-va and csi-attacher-pv;
//   - leader_election_master_status / leader_election_slowpath_total (ALPHA,
//     name=""), 0 until the leader-election worker sets them;
//   - process_* (process_start_time_seconds ALPHA);
//   - beyond upstream (#706): csi_attacher_oldest_pending_volumeattachment_seconds
//     and csi_attacher_volumeattachments{state}, computed at scrape time from
//     the VolumeAttachment store (va_census.h).
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the CSI connection using CsiHook() and the queues using the queue
// observers.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "attacher/controller.h"
#include "base/result.h"
#include "cmd/csi-attacher/options.h"
#include "csi/connection.h"
#include "kube/runtime/store.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/work_queue.h"
#include "metrics/http_server.h"
#include "metrics/registry.h"

namespace csiattacher {

// What the leader-election worker updates; both carry name="".
struct LeaderElectionMetrics {
  metrics::Gauge& master_status;     // 1 while leading, else 0
  metrics::Counter& slowpath_total;  // renewals that took the slow path
};

// Scrape-time gauges over one running controller; they disappear when this
// is destroyed, which must happen before the controller and store go.
struct ControllerGauges {
  std::vector<metrics::FunctionFamily::Registration> registrations;
};

class AttacherMetrics {
 public:
  AttacherMetrics();
  ~AttacherMetrics();
  AttacherMetrics(const AttacherMetrics&) = delete;
  AttacherMetrics& operator=(const AttacherMetrics&) = delete;

  metrics::Registry& registry() { return registry_; }

  // For csi::ConnectOptions::metrics.
  csi::MetricsHook CsiHook();
  // The driver named itself (GetPluginInfo): later calls carry its name.
  void SetDriverName(const std::string& name);

  kube::WorkQueueMetrics& volume_attachment_queue();
  kube::WorkQueueMetrics& persistent_volume_queue();
  LeaderElectionMetrics leader_election() { return {*master_status_, *slowpath_total_}; }

  [[nodiscard]] ControllerGauges WatchController(
      const attacher::Controller& controller,
      const kube::Store<kube::VolumeAttachment>& volume_attachments,
      const std::string& driver_name);

 private:
  class QueueMetrics;

  void Record(const csi::CallRecord& call);

  metrics::Registry registry_;
  std::mutex mu_;  // guards the three members below
  std::string driver_name_ = "unknown-driver";
  bool migration_driver_ = false;
  metrics::HistogramFamily* operations_;
  std::unique_ptr<QueueMetrics> va_queue_;
  std::unique_ptr<QueueMetrics> pv_queue_;
  metrics::Gauge* master_status_;
  metrics::Counter* slowpath_total_;
  metrics::FunctionFamily* unfinished_work_;
  metrics::FunctionFamily* longest_running_;
  metrics::FunctionFamily* oldest_pending_;
  metrics::FunctionFamily* attachments_by_state_;
};

// Serves `options.metrics_path` from `attacher_metrics` on HttpAddress(options); the
// caller adds /healthz/leader-election when that applies.
base::Result<std::unique_ptr<metrics::HttpServer>> StartHttpServer(
    const Options& options, AttacherMetrics& attacher_metrics);

}  // namespace csiattacher
