// RunController: the last step of startup (docs/attacher.md §1.4 "handler → run").
// Builds the caches, the handler the driver's capabilities call for
// (CsiHandler with PUBLISH_UNPUBLISH_VOLUME, else TrivialHandler), the
// Controller and, when the driver can also list published volumes, the
// Reconciler; runs them until `stop` and returns once all have stopped, with
// in-flight CSI calls finished. The queues and caches report to
// `attacher_metrics` while they run; failed attaches and detaches also become
// Warning Events on their VolumeAttachment (kube/tools/event_recorder.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>

#include "attacher/attacher_metrics.h"
#include "attacher/controller.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"

namespace attacher {

// What the attacher's flags and feature gates decide (docs/attacher.md §1.1).
struct RunControllerOptions {
  std::chrono::nanoseconds timeout{std::chrono::seconds(15)};  // one CSI call
  std::string default_fstype;
  ControllerOptions controller;
  int32_t max_entries = 0;  // per ListVolumes page; 0 = no limit
  std::chrono::nanoseconds reconcile_sync{std::chrono::minutes(1)};
  bool error_code_enabled = true;  // gate MutableCSINodeAllocatableCount
};

void RunController(const RunControllerOptions& options, const component::CsiDriver& driver,
                   kube::Client& client, AttacherMetrics& attacher_metrics, std::stop_token stop);

}  // namespace attacher
