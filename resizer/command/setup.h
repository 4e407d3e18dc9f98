// The resizer's decisions once the driver is known (docs/resizer.md §2.3
// steps 6-8), shared by csi-resizer's own run and its part of csi-sidecars:
// the expander and modifier the driver's capabilities allow and the
// controllers' options. Errors carry csi-resizer's exit code (1, or 255 for
// a driver that neither resizes nor modifies) and are logged by it in
// upstream's words; in csi-sidecars they turn the resizer off.
#pragma once

#include <chrono>
#include <memory>

#include "base/result.h"
#include "component/feature_gates.h"
#include "component/sidecar_startup.h"
#include "resizer/command/options.h"
#include "resizer/run_resizer.h"
#include "resizer/volume_expander.h"
#include "resizer/volume_modifier.h"

namespace csiresizer {

struct ResizerSetup {
  std::unique_ptr<resizer::VolumeExpander> expander;  // null: no resize controller
  std::unique_ptr<resizer::VolumeModifier> modifier;  // null: no modify controller
  resizer::RunResizerOptions run_options;
};

// `volume_attributes_class`: the settled gate; a driver that modifies still
// needs it for the modify controller to run, as upstream.
// `ask_capabilities_again`: resizer::ExpanderFor's and ModifierFor's.
base::Result<ResizerSetup> SetUpForDriver(const Options& options,
                                          std::chrono::nanoseconds resize_timeout,
                                          std::chrono::nanoseconds modify_timeout,
                                          const component::FeatureGates& gates,
                                          bool volume_attributes_class,
                                          const component::CsiDriver& driver,
                                          bool ask_capabilities_again = true);

}  // namespace csiresizer
