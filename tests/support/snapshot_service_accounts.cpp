#include "tests/support/snapshot_service_accounts.h"

#include <fmt/format.h>

#include "tests/support/source_dir.h"

namespace testsupport {
namespace {

std::string LeasesIn(const char* ns) {
  return fmt::format("/apis/coordination.k8s.io/v1/namespaces/{}/leases?limit=1", ns);
}

}  // namespace

// A ClusterRole is one object, so one of its rules answering shows all of
// them in effect; the RoleBinding's rule is the leader-election Leases.
ServiceAccountIdentity SnapshotterIdentity() {
  return {
      .rbac_manifest = SourcePath("deploy/kubernetes/csi-snapshotter/rbac-csi-snapshotter.yaml"),
      .ns = kSnapshotterNamespace,
      .name = kSnapshotterAccount,
      .probe_paths = {"/api/v1/events?limit=1", LeasesIn(kSnapshotterNamespace)}};
}

ServiceAccountIdentity SnapshotControllerIdentity() {
  return {
      .rbac_manifest =
          SourcePath("deploy/kubernetes/snapshot-controller/rbac-snapshot-controller.yaml"),
      .ns = kSnapshotControllerNamespace,
      .name = kSnapshotControllerAccount,
      .probe_paths = {"/api/v1/persistentvolumes?limit=1", LeasesIn(kSnapshotControllerNamespace)}};
}

base::Result<SnapshotKubeconfigs> AddSnapshotServiceAccounts(ControlPlane& plane) {
  auto sidecar = plane.AddServiceAccount(SnapshotterIdentity());
  if (!sidecar.ok()) return sidecar.error();
  auto controller = plane.AddServiceAccount(SnapshotControllerIdentity());
  if (!controller.ok()) return controller.error();
  return SnapshotKubeconfigs{.sidecar = *sidecar, .controller = *controller};
}

}  // namespace testsupport
