// SnapshotSync: the VolumeSnapshot sync of a snapshot that is not being
// deleted (docs/snapshots.md §4.3 steps 3-5): source validation, the
// VolumeSnapshot's finalizers, the default class, the dynamic content's
// creation or a pre-provisioned content's binding, and the status copied
// from the bound content with its Normal Events. Errors are saved in the
// snapshot's status and reported as upstream's Warning Events, then
// returned so the snapshot is retried with backoff.
//
// Thread-safe: many workers sync different snapshots at once.
#pragma once

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/handler_options.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

class SnapshotSync {
 public:
  SnapshotSync(ControllerApi& api, const Caches& caches, ClaimFinalizer& claim_finalizer,
               ControllerEvents& events, OperationMetrics& metrics, HandlerOptions options,
               base::Clock& clock);

  base::Status Sync(const kube::VolumeSnapshot& snapshot);
};

}  // namespace snapshot_controller
