// The snapshot stack's identities as deploy/kubernetes/ defines them, for
// ControlPlane::AddServiceAccount: csi-snapshotter's (default/csi-snapshotter,
// csi-snapshotter/rbac-csi-snapshotter.yaml) and snapshot-controller's
// (kube-system/snapshot-controller,
// snapshot-controller/rbac-snapshot-controller.yaml). Their probes read no
// custom resource, so they hold with or without the snapshot CRDs installed.
#pragma once

#include <string>

#include "base/result.h"
#include "tests/support/control_plane.h"

namespace testsupport {

inline constexpr char kSnapshotterNamespace[] = "default";
inline constexpr char kSnapshotterAccount[] = "csi-snapshotter";
inline constexpr char kSnapshotControllerNamespace[] = "kube-system";
inline constexpr char kSnapshotControllerAccount[] = "snapshot-controller";

ServiceAccountIdentity SnapshotterIdentity();
ServiceAccountIdentity SnapshotControllerIdentity();

// The kubeconfigs of both identities, added to `plane`.
struct SnapshotKubeconfigs {
  std::string sidecar;
  std::string controller;
};
base::Result<SnapshotKubeconfigs> AddSnapshotServiceAccounts(ControlPlane& plane);

}  // namespace testsupport
