// The PersistentVolumes a dynamic VolumeGroupSnapshot is taken of
// (docs/snapshots.md §4.7): the claims of its namespace that its selector's
// matchLabels pick - listed from the API with that labelSelector, as
// upstream does, so matchExpressions select nothing more - each Bound to a
// volume that names it back (VolumeOfClaim). In the list's order. Errors are
// upstream's texts:
//   - "failed to list PVCs with label selector <selector>: <quoted error>";
//   - "label selector <selector> for group snapshot not applied to any PVC";
//   - those of VolumeOfClaim for the first claim that fails.
// <selector> is the whole selector as metav1.FormatLabelSelector writes it.
#pragma once

#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

base::Result<std::vector<kube::PersistentVolume>> GroupVolumesOf(
    const kube::VolumeGroupSnapshot& group, const Caches& caches, ControllerApi& api);

}  // namespace snapshot_controller
