// The csi-provisioner's identity as deploy/kubernetes/csi-provisioner/rbac.yaml
// defines it (default/csi-provisioner), for ControlPlane::AddServiceAccount:
// shared by the provisioner's integration tests and its benchmark. One probe
// per binding: the ClusterRole's persistentvolumes, the Role's Leases.
#pragma once

#include "tests/support/control_plane.h"

namespace testsupport {

inline constexpr char kProvisionerNamespace[] = "default";
inline constexpr char kProvisionerAccount[] = "csi-provisioner";

ServiceAccountIdentity ProvisionerIdentity();

}  // namespace testsupport
