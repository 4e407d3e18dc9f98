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
  // Upstream reports a failure here and carries on with the sync (§4.3 step 1).
  if (!claim_finalizer_.RemoveIfNoUnreadySnapshot(snapshot).ok()) {
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeWarning, "ErrorPVCFinalizer",
                   "Error check and remove PVC Finalizer for VolumeSnapshot");
  }
  if (!snapshot.metadata.deletion_timestamp.empty()) return deletion_.Delete(snapshot);
  return snapshot_sync_.Sync(snapshot);
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
