// The gates --feature-gates accepts in both snapshot binaries, csi-snapshotter
// and snapshot-controller (docs/snapshots.md §1 "Feature gates", §3.1, §4.1):
// upstream builds both from one repository whose two gates live in one
// package, so the two tables are one.
//
// Upstream applies the flag to the process-wide apiserver feature gate, so
// besides its own two gates it accepts every k8s.io/apiserver gate, the
// component-base zpages and metrics gates and the AllAlpha/AllBeta switches;
// a manifest naming any of them must keep working, even though only the
// snapshot gates change what these programs do. The table is that of
// upstream v8.7.0's libraries (Kubernetes 1.37), each gate as it stands at
// version 1.37.
#pragma once

#include <string_view>
#include <vector>

#include "component/feature_gates.h"

namespace snapshot {

// GA, on: group snapshots, when their CRDs are installed (§3.2 step 7, §4.1).
inline constexpr std::string_view kCSIVolumeGroupSnapshot = "CSIVolumeGroupSnapshot";
// Alpha, off: upstream's graceful SIGTERM handling. Here a signal always
// stops gracefully (§9.8), so the gate only exists to be accepted.
inline constexpr std::string_view kReleaseLeaderElectionOnExit = "ReleaseLeaderElectionOnExit";

// Every gate --feature-gates accepts, sorted by name.
const std::vector<component::FeatureSpec>& KnownFeatureSpecs();

}  // namespace snapshot
