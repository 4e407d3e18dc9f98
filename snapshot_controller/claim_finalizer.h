// ClaimFinalizer: the `pvc-as-source-protection` finalizer that keeps a
// PersistentVolumeClaim while a snapshot is being taken of it
// (docs/snapshots.md §4.3 step 1 and createSnapshotContent step 1, §4.5
// step 6). The cache decides whether a claim needs a write (for the removal,
// the cache or our own last write of the claim, whichever shows the
// finalizer, as the cache may lag behind that write: §9.14); the claim is
// replaced whole (Update), as the RBAC grants no patch on claims: for the
// finalizer's addition from a fresh read (GET), for its removal from the
// cache. A write conflict is retried from a fresh read, a few times. Errors
// read as upstream's: "snapshot controller failed to update <name> on API
// server: <reason>".
//
// Thread-safe: it keeps no state of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {

class ClaimFinalizer {
 public:
  ClaimFinalizer(ControllerApi& api, const Caches& caches) : api_(api), caches_(caches) {}

  // Adds the finalizer to the snapshot's source claim unless it is there.
  // Errors: the claim is not in the cache ("cannot get claim from
  // snapshot"), or it has a deletionTimestamp ("cannot add finalizer on
  // claim because it is being deleted"), or the write failed.
  base::Status Add(const kube::VolumeSnapshot& snapshot);
  // Removes it from the snapshot's source claim when no unready
  // VolumeSnapshot in the namespace other than `snapshot` (by the cache)
  // takes that claim as its source: the check of a snapshot's deletion
  // (§4.5 step 6). Nothing for a pre-provisioned snapshot or a claim that is
  // gone.
  base::Status RemoveIfUnused(const kube::VolumeSnapshot& snapshot);
  // The same, `snapshot` itself counting while it is not ready: the check at
  // the start of every VolumeSnapshot sync (§4.3 step 1).
  base::Status RemoveIfNoUnreadySnapshot(const kube::VolumeSnapshot& snapshot);

 private:
  base::Status Remove(const kube::VolumeSnapshot& snapshot, bool count_snapshot);
  // The claim ns/name with the finalizer, as the cache or our own last write
  // has it; nullopt when it is not in the cache or neither shows it.
  std::optional<kube::PersistentVolumeClaim> ProtectedClaim(const std::string& ns,
                                                            const std::string& name) const;
  // Whether an unready snapshot of `snapshot`'s namespace (`snapshot` itself
  // only when `count_snapshot`) takes `claim_name` as its source.
  bool InUse(const kube::VolumeSnapshot& snapshot, const std::string& claim_name,
             bool count_snapshot) const;

  ControllerApi& api_;
  const Caches& caches_;
};

}  // namespace snapshot_controller
