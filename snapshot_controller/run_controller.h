// RunController: the snapshot-controller's last step of start-up
// (docs/snapshots.md §4.1, §4.2), after the CRD check and, with
// --leader-election, once this replica leads. Builds the informers (VolumeSnapshot, content, class,
// PersistentVolumeClaim, PersistentVolume; Node with distributed
// snapshotting), the CommonHandler with its Events (source
// "snapshot-controller") and the loop with its two queues; runs them until
// `stop` and returns once in-flight syncs have finished (§9.8).
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>

#include "kube/client/client.h"
#include "snapshot_controller/handler_options.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

struct RunControllerOptions {
  uint32_t worker_threads = 10;                          // --worker-threads
  std::chrono::milliseconds retry_interval_start{1000};  // --retry-interval-start
  std::chrono::milliseconds retry_interval_max{300000};  // --retry-interval-max
  std::chrono::milliseconds resync_period{900000};       // --resync-period; 0 = never
  HandlerOptions handler;
};

void RunController(const RunControllerOptions& options, kube::Client& client,
                   OperationMetrics& metrics, std::stop_token stop);

}  // namespace snapshot_controller
