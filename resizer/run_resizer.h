// RunResizer: the last step of start-up (docs/resizer.md §2.3): the caches
// (claims as ResizeClaim, PVs) and the resize controller with its Events
// (source "external-resizer <driver>"), until `stop`; returns once the
// workers stopped, with in-flight CSI calls finished. The queue reports to
// `metrics` while it runs.
#pragma once

#include <chrono>
#include <stop_token>

#include "component/loop_options.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"
#include "resizer/resize_controller.h"
#include "resizer/resizer_metrics.h"
#include "resizer/volume_expander.h"

namespace resizer {

struct RunResizerOptions {
  // loop: --workers, the retry intervals, --resync-period.
  ResizeControllerOptions controller;
};

void RunResizer(const RunResizerOptions& options, const component::CsiDriver& driver,
                VolumeExpander& expander, kube::Client& client, ResizerMetrics& metrics,
                std::stop_token stop);

}  // namespace resizer
