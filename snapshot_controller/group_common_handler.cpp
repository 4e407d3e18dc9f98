#include "snapshot_controller/group_common_handler.h"

#include "snapshot_controller/driver_of.h"

namespace snapshot_controller {

base::Status GroupCommonHandler::SyncSnapshot(const kube::VolumeGroupSnapshot& group) {
  if (!group.metadata.deletion_timestamp.empty()) return deletion_.Delete(group);
  return sync_.Sync(group);
}

base::Result<ContentSyncOutcome> GroupCommonHandler::SyncContent(
    const kube::VolumeGroupSnapshotContent& content) {
  return content_sync_.Sync(content);
}

void GroupCommonHandler::SnapshotDeleted(const kube::VolumeGroupSnapshot& group) {
  metrics_.Record(kDeleteGroupSnapshotOperation, group.metadata.uid.str(),
                  OperationStatus::kSuccess, DriverOf(group, caches_));
}

}  // namespace snapshot_controller
