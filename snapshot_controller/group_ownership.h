// EnsureGroupOwnership: a statically provisioned member of a group snapshot
// - a ready VolumeSnapshot whose status names its group snapshot
// (volumeGroupSnapshotName) but that has no owner reference to it - gets one
// (docs/snapshots.md §4.3 step 5, upstream's addVolumeGroupSnapshotOwnership),
// by a JSON Patch guarded by a `test` of the owner references as cached
// (computed again from a fresh GET when stale), not upstream's PUT. A group
// snapshot the cache does not hold is an error (upstream's lister's). With
// group snapshots off nothing is looked up and nothing written (§9.13:
// upstream consults its nil lister here and crashes).
#pragma once

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

base::Status EnsureGroupOwnership(ControllerApi& api, const Caches& caches,
                                  const kube::VolumeSnapshot& snapshot);

}  // namespace snapshot_controller
