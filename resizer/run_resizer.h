// Resizer: the last step of start-up (docs/resizer.md §2.3), built on an
// InformerSet - the resizer's own, or one csi-sidecars shares between its
// controllers: the caches (claims, PVs, and VolumeAttributesClasses for
// modify) and the resize controller when there is an `expander`, the modify controller
// when there is a `modifier`, with their Events (source "external-resizer
// <driver>"). Run() runs them until `stop` and returns once the workers
// stopped, with in-flight CSI calls finished. The queues report to
// `metrics` while they run.
//
// RunResizer is the separate binary's whole run: its own InformerSet, a
// Resizer on it, both until `stop`.
#pragma once

#include <chrono>
#include <memory>
#include <stop_token>

#include "component/loop_options.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"
#include "kube/runtime/informer_set.h"
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

class Resizer {
 public:
  // Everything given must outlive it; `expander` and `modifier` may be null.
  Resizer(const RunResizerOptions& options, const component::CsiDriver& driver,
          VolumeExpander* expander, VolumeModifier* modifier, kube::Client& client,
          kube::InformerSet& informers, ResizerMetrics& metrics);
  ~Resizer();
  Resizer(const Resizer&) = delete;
  Resizer& operator=(const Resizer&) = delete;

  void Run(std::stop_token stop);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

// With neither an `expander` nor a `modifier` (a driver that only modifies,
// the VolumeAttributesClass gate off), it idles until `stop`, as upstream.
void RunResizer(const RunResizerOptions& options, const component::CsiDriver& driver,
                VolumeExpander* expander, VolumeModifier* modifier, kube::Client& client,
                ResizerMetrics& metrics, std::stop_token stop);

}  // namespace resizer
