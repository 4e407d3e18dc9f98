// RunResizer: the last step of start-up (docs/resizer.md §2.3): the caches
// (claims as ResizeClaim, PVs, and VolumeAttributesClasses for modify) and
// the resize controller when there is an `expander`, the modify controller
// when there is a `modifier`, with their Events (source "external-resizer
// <driver>"), until `stop`; returns once the workers stopped, with in-flight
// CSI calls finished. The queues report to `metrics` while they run.
#pragma once

#include <chrono>
#include <stop_token>

#include "component/loop_options.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"
#include "resizer/modify_controller.h"
#include "resizer/resize_controller.h"
#include "resizer/resizer_metrics.h"
#include "resizer/volume_expander.h"
#include "resizer/volume_modifier.h"

namespace resizer {

struct RunResizerOptions {
  // loop: --workers, the retry intervals, --resync-period.
  ResizeControllerOptions controller;
  ModifyControllerOptions modify;
};

// With neither an `expander` nor a `modifier` (a driver that only modifies,
// the VolumeAttributesClass gate off), it idles until `stop`, as upstream.
void RunResizer(const RunResizerOptions& options, const component::CsiDriver& driver,
                VolumeExpander* expander, VolumeModifier* modifier, kube::Client& client,
                ResizerMetrics& metrics, std::stop_token stop);

}  // namespace resizer
