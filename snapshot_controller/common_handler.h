// CommonHandler: the snapshot-controller's ControllerHandler, composed of the
// syncs of docs/snapshots.md §4.3-§4.5. Every VolumeSnapshot sync first lets
// go of the source claim's finalizer when no unready snapshot needs it
// (§4.3 step 1; a failure is a Warning ErrorPVCFinalizer and the sync goes
// on, as upstream's, but then fails, so the snapshot is retried with backoff
// until the claim is let go of: §9.14), then deletes (SnapshotDeletion) or
// syncs (SnapshotSync).
// A snapshot leaving the cache ends its DeleteSnapshot operation as a
// success, and its creates still pending as cancel (§4.6).
#pragma once

#include "base/clock.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/content_sync.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/controller_handler.h"
#include "snapshot_controller/handler_options.h"
#include "snapshot_controller/operation_metrics.h"
#include "snapshot_controller/snapshot_deletion.h"
#include "snapshot_controller/snapshot_sync.h"
#include "snapshot_controller/written_snapshots.h"

namespace snapshot_controller {

class CommonHandler final : public ControllerHandler {
 public:
  // Everything passed must outlive the handler.
  CommonHandler(ControllerApi& api, const Caches& caches, ControllerEvents& events,
                OperationMetrics& metrics, HandlerOptions options, base::Clock& clock);

  base::Status SyncSnapshot(const kube::VolumeSnapshot& snapshot) override;
  base::Result<ContentSyncOutcome> SyncContent(const kube::VolumeSnapshotContent& content) override;
  void SnapshotDeleted(const kube::VolumeSnapshot& snapshot) override;

 private:
  const Caches& caches_;
  ControllerEvents& events_;
  OperationMetrics& metrics_;
  ClaimFinalizer claim_finalizer_;
  WrittenSnapshots written_snapshots_;
  SnapshotSync snapshot_sync_;
  SnapshotDeletion deletion_;
  ContentSync content_sync_;
};

}  // namespace snapshot_controller
