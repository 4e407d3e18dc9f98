// The csi-resizer's identity as deploy/kubernetes/csi-resizer/rbac.yaml
// defines it (default/csi-resizer), for ControlPlane::AddServiceAccount:
// shared by the resizer's integration tests and its benchmark. One probe per
// binding: the ClusterRole's persistentvolumes, the Role's Leases.
#pragma once

#include "tests/support/control_plane.h"

namespace testsupport {

inline constexpr char kResizerNamespace[] = "default";
inline constexpr char kResizerAccount[] = "csi-resizer";

ServiceAccountIdentity ResizerIdentity();

}  // namespace testsupport
