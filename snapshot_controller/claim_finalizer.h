// ClaimFinalizer: the `pvc-as-source-protection` finalizer that keeps a
// PersistentVolumeClaim while a snapshot is being taken of it
// (docs/snapshots.md §4.3 step 1 and createSnapshotContent step 1, §4.5
// step 6). The claim is read fresh and replaced whole (Update), as the RBAC
// grants no patch on claims; a write conflict is retried from a fresh read.
#pragma once

#include <string_view>

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

inline constexpr std::string_view kClaimAsSourceFinalizer =
    "snapshot.storage.kubernetes.io/pvc-as-source-protection";

class ClaimFinalizer {
 public:
  ClaimFinalizer(ControllerApi& api, const Caches& caches) : api_(api), caches_(caches) {}

  // Adds the finalizer to the snapshot's source claim unless it is there.
  // Error "cannot add finalizer on claim because it is being deleted" when
  // the claim has a deletionTimestamp.
  base::Status Add(const kube::VolumeSnapshot& snapshot);
  // Removes it from the snapshot's source claim when no unready
  // VolumeSnapshot in the namespace other than `snapshot` (by the cache)
  // takes that claim as its source. Nothing for a pre-provisioned snapshot
  // or a claim that is gone.
  base::Status RemoveIfUnused(const kube::VolumeSnapshot& snapshot);

 private:
  ControllerApi& api_;
  const Caches& caches_;
};

}  // namespace snapshot_controller
