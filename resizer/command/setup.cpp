#include "resizer/command/setup.h"

#include "base/log.h"
#include "component/exit_codes.h"
#include "component/loop_options.h"
#include "resizer/expander_choice.h"

namespace csiresizer {

base::Result<ResizerSetup> SetUpForDriver(
    const Options& options, std::chrono::nanoseconds resize_timeout,
    std::chrono::nanoseconds modify_timeout, const component::FeatureGates& gates,
    bool volume_attributes_class, const component::CsiDriver& driver, bool ask_capabilities_again) {
  ResizerSetup setup;
  base::Result<std::unique_ptr<resizer::VolumeExpander>> expander =
      resizer::ExpanderFor(driver, resize_timeout, ask_capabilities_again);
  if (!expander.ok()) {
    return base::Error::WithCode(component::kExitFailure,
                                 "Failed to create CSI resizer: " + expander.error().message);
  }
  setup.expander = std::move(expander).value();
  if (!setup.expander) {
    LOG_INFO("Resize not supported")
        .With("message", "CSI driver neither supports controller resize nor node resize");
  }
  base::Result<std::unique_ptr<resizer::VolumeModifier>> modifier =
      resizer::ModifierFor(driver, modify_timeout, ask_capabilities_again);
  if (!modifier.ok()) {
    return base::Error::WithCode(component::kExitFailure,
                                 "Failed to create CSI modifier: " + modifier.error().message);
  }
  setup.modifier = std::move(modifier).value();
  if (!setup.modifier) {
    LOG_INFO("Modify not supported")
        .With("message", "CSI driver does not support controller modify");
  }
  if (!setup.expander && !setup.modifier) {
    return base::Error::WithCode(component::kExitFatal,
                                 "CSI driver does not support resize nor modify");
  }
  // Like upstream, a driver that modifies still needs the gate for the
  // modify controller to run.
  if (!volume_attributes_class) setup.modifier.reset();
  const component::LoopOptions loop =
      component::LoopOptionsFrom(options.workers, options, options.resync_period);
  setup.run_options = {
      .controller = {.loop = loop,
                     .annotate_fs_resize = gates.Enabled(kAnnotateFsResize),
                     .handle_in_use_errors = options.handle_volume_inuse_error},
      .modify = {.loop = loop, .extra_modify_metadata = options.extra_modify_metadata}};
  return setup;
}

}  // namespace csiresizer
