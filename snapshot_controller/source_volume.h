// The PersistentVolume a dynamic VolumeSnapshot is taken of
// (docs/snapshots.md §4.3 step 0 and createSnapshotContent step 2): the
// snapshot's claim from the cache, which must be Bound, then the claim's
// volume from the cache or, when the cache does not hold it yet, from the
// API; the volume must name the claim back. Errors are upstream's texts.
#pragma once

#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

base::Result<kube::PersistentVolume> SourceVolumeOf(const kube::VolumeSnapshot& snapshot,
                                                    const Caches& caches, ControllerApi& api);

// The same from a claim in hand: it must be Bound ("... will not attempt to
// take a <what>", `what` being "snapshot" or "group snapshot"), and its
// volume name it back.
base::Result<kube::PersistentVolume> VolumeOfClaim(const kube::PersistentVolumeClaim& claim,
                                                   std::string_view what, const Caches& caches,
                                                   ControllerApi& api);

}  // namespace snapshot_controller
