// The snapshot stack's identities as deploy/kubernetes/ defines them, for
// ControlPlane::AddServiceAccount: csi-snapshotter's (default/csi-snapshotter,
// csi-snapshotter/rbac-csi-snapshotter.yaml) and snapshot-controller's
// (kube-system/snapshot-controller,
// snapshot-controller/rbac-snapshot-controller.yaml). Their probes read no
// custom resource, so they hold with or without the snapshot CRDs installed.
#pragma once

#include "tests/support/control_plane.h"

namespace testsupport {

inline constexpr char kSnapshotterNamespace[] = "default";
inline constexpr char kSnapshotterAccount[] = "csi-snapshotter";
inline constexpr char kSnapshotControllerNamespace[] = "kube-system";
inline constexpr char kSnapshotControllerAccount[] = "snapshot-controller";

ServiceAccountIdentity SnapshotterIdentity();
ServiceAccountIdentity SnapshotControllerIdentity();

}  // namespace testsupport
