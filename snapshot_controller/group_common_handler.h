// GroupCommonHandler: the snapshot-controller's GroupHandler while group
// snapshots run (docs/snapshots.md §4.7), composed of the group syncs, each
// in its own class: a group snapshot is deleted (GroupSnapshotDeletion) once
// it has a deletionTimestamp, else synced (GroupSnapshotSync, which makes
// its content and members); a group content is synced by GroupContentSync.
// A group snapshot leaving the cache ends its DeleteGroupSnapshot operation
// as a success, and its creates still pending as cancel (§4.6).
#pragma once

#include "base/clock.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/group_content_sync.h"
#include "snapshot_controller/group_handler.h"
#include "snapshot_controller/group_members.h"
#include "snapshot_controller/group_snapshot_deletion.h"
#include "snapshot_controller/group_snapshot_sync.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

class GroupCommonHandler final : public GroupHandler {
 public:
  // `caches.groups` must be set. Everything passed must outlive the handler.
  GroupCommonHandler(ControllerApi& api, const Caches& caches, ControllerEvents& events,
                     OperationMetrics& metrics, base::Clock& clock)
      : caches_(caches),
        metrics_(metrics),
        members_(api, caches),
        sync_(api, caches, events, metrics, members_, clock),
        deletion_(api, caches, events, metrics, clock),
        content_sync_(api, caches, events) {}

  base::Status SyncSnapshot(const kube::VolumeGroupSnapshot& group) override;
  base::Result<ContentSyncOutcome> SyncContent(
      const kube::VolumeGroupSnapshotContent& content) override;
  void SnapshotDeleted(const kube::VolumeGroupSnapshot& group) override;

 private:
  const Caches& caches_;
  OperationMetrics& metrics_;
  GroupMembers members_;
  GroupSnapshotSync sync_;
  GroupSnapshotDeletion deletion_;
  GroupContentSync content_sync_;
};

}  // namespace snapshot_controller
