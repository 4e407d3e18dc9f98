// The resizer's command line (docs/resizer.md §2.1): every flag upstream's
// csi-resizer v2.3.0 accepts, with the same name, type and default - the
// flags every CSI sidecar shares (component/standard_flags.h) plus the
// resizer's own.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/flags.h"
#include "component/feature_gates.h"
#include "component/standard_flags.h"

namespace csiresizer {

// The gates --feature-gates accepts (§2.2), besides the API server's.
inline constexpr std::string_view kAnnotateFsResize = "AnnotateFsResize";
inline constexpr std::string_view kVolumeAttributesClass = "VolumeAttributesClass";
inline constexpr std::string_view kReleaseLeaderElectionOnExit = "ReleaseLeaderElectionOnExit";
const std::vector<component::FeatureSpec>& KnownFeatureSpecs();

struct Options : component::SidecarOptions, component::RetryIntervalOptions {
  std::chrono::nanoseconds resync_period = std::chrono::minutes(10);
  int64_t workers = 10;
  bool extra_modify_metadata = false;
  std::chrono::nanoseconds timeout = std::chrono::seconds(10);
  std::chrono::nanoseconds resize_timeout = std::chrono::seconds(10);
  std::chrono::nanoseconds modify_timeout = std::chrono::seconds(10);
  bool handle_volume_inuse_error = true;
};

// Registers every flag on `flags`, writing into `options` (which must outlive
// `flags`).
void RegisterFlags(base::FlagSet& flags, Options& options);
// The resizer's own flags alone (csi-sidecars registers them prefixed): all
// but the shared sidecar flags and --master.
void RegisterOwnFlags(base::FlagSet& flags, Options& options);

// The deadline of each ControllerExpandVolume (and its capability checks):
// --timeout when given on the command line, else --resize-timeout.
std::chrono::nanoseconds ResizeTimeout(const Options& options, const base::FlagSet& flags);

// The deadline of each ControllerModifyVolume (and its capability check):
// --timeout when given on the command line, else --modify-timeout.
std::chrono::nanoseconds ModifyTimeout(const Options& options, const base::FlagSet& flags);

}  // namespace csiresizer
