// The gates the attacher's --feature-gates accepts (docs/attacher.md §1.3).
//
// Upstream applies the flag to the process-wide apiserver feature gate, so
// besides the attacher's own two gates it accepts every k8s.io/apiserver gate,
// the component-base zpages gates and the AllAlpha/AllBeta switches; a
// manifest naming any of them must keep working, even though only the
// attacher's gates change what this program does. The table is upstream
// v4.12's (Kubernetes 1.36 libraries), checked against its binary.
#pragma once

#include <string_view>
#include <vector>

#include "component/feature_gates.h"

namespace csiattacher {

// GA, on: a failed attach reports the driver's gRPC code in
// status.attachError.errorCode.
inline constexpr std::string_view kMutableCSINodeAllocatableCount =
    "MutableCSINodeAllocatableCount";
// Alpha, off: upstream's graceful SIGTERM handling. Here a signal always
// stops gracefully (docs/attacher.md §7), so the gate only exists to be accepted.
inline constexpr std::string_view kReleaseLeaderElectionOnExit = "ReleaseLeaderElectionOnExit";

// Every gate --feature-gates accepts, sorted by name.
const std::vector<component::FeatureSpec>& KnownFeatureSpecs();

}  // namespace csiattacher
