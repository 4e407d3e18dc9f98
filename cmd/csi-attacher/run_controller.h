// RunController: the last step of startup (docs/attacher.md §1.4 "handler → run").
// Builds the caches, the handler the driver's capabilities call for
// (CsiHandler with PUBLISH_UNPUBLISH_VOLUME, else TrivialHandler), the
// Controller and, when the driver can also list published volumes, the
// Reconciler; runs them until `stop` and returns once all have stopped, with
// in-flight CSI calls finished. The queues and caches report to
// `attacher_metrics` while they run; failed attaches and detaches also become
// Warning Events on their VolumeAttachment (kube/tools/event_recorder.h).
#pragma once

#include <stop_token>

#include "cmd/csi-attacher/metrics_wiring.h"
#include "cmd/csi-attacher/options.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"

namespace csiattacher {

struct ControllerFeatures {
  bool error_code_enabled = true;  // MutableCSINodeAllocatableCount
};

void RunController(const Options& options, const component::CsiDriver& driver,
                   const ControllerFeatures& features, kube::Client& client,
                   AttacherMetrics& attacher_metrics, std::stop_token stop);

}  // namespace csiattacher
