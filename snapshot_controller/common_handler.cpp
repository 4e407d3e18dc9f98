#include "snapshot_controller/common_handler.h"

#include "snapshot_controller/driver_of.h"

namespace snapshot_controller {

CommonHandler::CommonHandler(ControllerApi& api, const Caches& caches, ControllerEvents& events,
                             OperationMetrics& metrics, HandlerOptions options, base::Clock& clock)
    : caches_(caches),
      events_(events),
      metrics_(metrics),
      claim_finalizer_(api, caches),
      snapshot_sync_(api, caches, claim_finalizer_, written_snapshots_, events, metrics, options,
                     clock),
      deletion_(api, caches, claim_finalizer_, events, metrics, clock),
      content_sync_(api, caches, events) {}

base::Status CommonHandler::SyncSnapshot(const kube::VolumeSnapshot& snapshot) {
  // Upstream reports a failure here and carries on with the sync (§4.3 step
  // 1), and nothing brings it back to the claim until the next resync; ours
  // carries on too, then fails the sync so the check is retried (§9.14).
  base::Status released = claim_finalizer_.RemoveIfNoUnreadySnapshot(snapshot);
  if (!released.ok()) {
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeWarning, "ErrorPVCFinalizer",
                   "Error check and remove PVC Finalizer for VolumeSnapshot");
  }
  base::Status synced = snapshot.metadata.deletion_timestamp.empty() ? snapshot_sync_.Sync(snapshot)
                                                                     : deletion_.Delete(snapshot);
  if (!synced.ok()) return synced;
  return released;
}

base::Result<ContentSyncOutcome> CommonHandler::SyncContent(
    const kube::VolumeSnapshotContent& content) {
  return content_sync_.Sync(content);
}

void CommonHandler::SnapshotDeleted(const kube::VolumeSnapshot& snapshot) {
  // A driver no cache can tell any more ("") keeps the one the deletion
  // started with, as upstream's.
  metrics_.Record(kDeleteSnapshotOperation, snapshot.metadata.uid.str(), OperationStatus::kSuccess,
                  DriverOf(snapshot, caches_));
}

}  // namespace snapshot_controller
