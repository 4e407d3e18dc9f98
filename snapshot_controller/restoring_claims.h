// Whether a snapshot is the source of a claim being restored
// (docs/snapshots.md §4.5 step 2, §4.7): a Pending PersistentVolumeClaim of
// its namespace whose dataSource is {VolumeSnapshot,
// snapshot.storage.k8s.io, its name}. While one is, the snapshot (or its
// group snapshot) may not be deleted.
#pragma once

#include <optional>
#include <string>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/runtime/store.h"

namespace snapshot_controller {

// "namespace/name" of such a claim (the first by name), if any.
std::optional<std::string> ClaimRestoringFrom(
    const kube::VolumeSnapshot& snapshot, const kube::Store<kube::PersistentVolumeClaim>& claims);

}  // namespace snapshot_controller
