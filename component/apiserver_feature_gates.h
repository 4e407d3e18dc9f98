// The feature gates every sidecar's --feature-gates accepts besides its own
// (docs/snapshots.md §1 "Feature gates", docs/provisioner.md §2.3):
// upstream applies the flag to the process-wide apiserver feature gate, so
// it accepts every k8s.io/apiserver gate, the component-base zpages and
// metrics gates and the AllAlpha/AllBeta switches; a manifest naming any of
// them must keep working, even though none changes what the sidecars do.
// The table is that of the Kubernetes 1.37 libraries, each gate as it stands
// at version 1.37.
#pragma once

#include <vector>

#include "component/feature_gates.h"

namespace component {

// The gates above, unsorted; a binary adds its own and sorts (SortedByName).
std::vector<FeatureSpec> ApiServerFeatureSpecs();

}  // namespace component
