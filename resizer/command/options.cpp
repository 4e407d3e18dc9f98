#include "resizer/command/options.h"

#include <utility>

#include "component/apiserver_feature_gates.h"

namespace csiresizer {

const std::vector<component::FeatureSpec>& KnownFeatureSpecs() {
  static const std::vector<component::FeatureSpec> specs = [] {
    using enum component::FeatureStage;
    std::vector<component::FeatureSpec> all = component::ApiServerFeatureSpecs();
    all.push_back({kAnnotateFsResize, true, kBeta});
    all.push_back({kVolumeAttributesClass, true, kGA});
    all.push_back({kReleaseLeaderElectionOnExit, false, kAlpha});
    return component::SortedByName(std::move(all));
  }();
  return specs;
}

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterSidecarFlags(flags, o, component::FeatureGates(KnownFeatureSpecs()));
  component::RegisterMasterFlag(flags, o);
  RegisterOwnFlags(flags, o);
}

void RegisterOwnFlags(base::FlagSet& flags, Options& o) {
  flags.Duration("resync-period", &o.resync_period, o.resync_period,
                 "How often every claim is looked at again even without a change.");
  flags.Int("workers", &o.workers, o.workers, "Claims expanded, and claims modified, at once.");
  flags.Bool("extra-modify-metadata", &o.extra_modify_metadata, o.extra_modify_metadata,
             "Add the claim's name and namespace and the PV's name to the parameters of "
             "ControllerModifyVolume.");
  flags.Duration("timeout", &o.timeout, o.timeout,
                 "Deadline of each probe of the driver and of GetPluginInfo; given on the command "
                 "line, also of each ControllerExpandVolume and ControllerModifyVolume, in place "
                 "of --resize-timeout and --modify-timeout.");
  flags.Duration("resize-timeout", &o.resize_timeout, o.resize_timeout,
                 "Deadline of each ControllerExpandVolume and of the capability calls before it; "
                 "ignored when --timeout is given.");
  flags.Duration("modify-timeout", &o.modify_timeout, o.modify_timeout,
                 "Deadline of each ControllerModifyVolume; ignored when --timeout is given.");
  flags.Bool("handle-volume-inuse-error", &o.handle_volume_inuse_error, o.handle_volume_inuse_error,
             "After the driver refused an expansion as in use (FailedPrecondition), wait until "
             "no running Pod uses the claim before asking again; keeps a cache of all Pods.");
  component::RegisterRetryIntervalFlags(flags, o, "a failed expansion");
}

std::chrono::nanoseconds ResizeTimeout(const Options& options, const base::FlagSet& flags) {
  return flags.IsSet("timeout") ? options.timeout : options.resize_timeout;
}

std::chrono::nanoseconds ModifyTimeout(const Options& options, const base::FlagSet& flags) {
  return flags.IsSet("timeout") ? options.timeout : options.modify_timeout;
}

}  // namespace csiresizer
