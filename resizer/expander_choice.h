// ExpanderFor: the resizer upstream's start-up builds for a driver
// (docs/resizer.md §2.3 steps 4-5), from the capabilities it read:
//   - no CONTROLLER_SERVICE: the error "CSI driver does not support
//     controller service" (start-up exits 1), even for a node-only driver;
//   - the EXPAND_VOLUME controller capability: a CsiVolumeExpander, after a
//     ControllerGetCapabilities call that must succeed (upstream's probe of
//     SINGLE_NODE_MULTI_WRITER);
//   - else EXPAND_VOLUME in NodeGetCapabilities: a NodeOnlyExpander;
//   - else null: "Resize not supported".
// Each call under `timeout` (--resize-timeout).
//
// ModifierFor: the modifier, from a ControllerGetCapabilities call under
// `timeout` (--modify-timeout) that must succeed: a CsiVolumeModifier for
// the MODIFY_VOLUME capability, else null ("Modify not supported").
//
// With `ask_again` false (csi-sidecars, whose start-up read the controller's
// capabilities once for all its controllers) neither asks the driver for
// its controller capabilities again; they use `driver.capabilities`.
#pragma once

#include <chrono>
#include <memory>

#include "base/result.h"
#include "component/sidecar_startup.h"
#include "resizer/volume_expander.h"
#include "resizer/volume_modifier.h"

namespace resizer {

base::Result<std::unique_ptr<VolumeExpander>> ExpanderFor(const component::CsiDriver& driver,
                                                          std::chrono::nanoseconds timeout,
                                                          bool ask_again = true);

base::Result<std::unique_ptr<VolumeModifier>> ModifierFor(const component::CsiDriver& driver,
                                                          std::chrono::nanoseconds timeout,
                                                          bool ask_again = true);

}  // namespace resizer
