// SnapshotDeletion: what happens once a VolumeSnapshot has a
// deletionTimestamp (docs/snapshots.md §4.5): wait while a Pending claim
// restores from it (SnapshotDeletePending naming the claim, at most once per
// 5 minutes per snapshot, §9.7), mark the content being deleted, delete it
// under policy Delete, then remove the snapshot's finalizers in the order
// that keeps the content until the sidecar has deleted the backend snapshot.
// Starts the DeleteSnapshot operation in the metrics.
//
// Thread-safe: many workers delete different snapshots at once.
#pragma once

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

class SnapshotDeletion {
 public:
  SnapshotDeletion(ControllerApi& api, const Caches& caches, ClaimFinalizer& claim_finalizer,
                   ControllerEvents& events, OperationMetrics& metrics, base::Clock& clock);

  base::Status Delete(const kube::VolumeSnapshot& snapshot);
};

}  // namespace snapshot_controller
