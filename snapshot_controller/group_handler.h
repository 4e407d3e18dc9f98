// GroupHandler: what the snapshot-controller's loop calls for each queued
// group object (docs/snapshots.md §4.7), as ControllerHandler is for single
// snapshots. The loop owns the group informers and the queues
// "snapshot-controller-group-snapshot" and "snapshot-controller-group-content";
// the handler decides and writes.
//
// Each call gets the object as the informer's store holds it when the sync
// starts. An error retries it with the error backoff; success forgets the
// backoff. Called from many worker threads at once, never twice concurrently
// for the same object. The methods are named as ControllerHandler's, so one
// loop (KindPairLoop) drives both.
#pragma once

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/controller_handler.h"

namespace snapshot_controller {

class GroupHandler {
 public:
  virtual ~GroupHandler() = default;

  // The group snapshot sync, or its deletion once it has a deletionTimestamp.
  virtual base::Status SyncSnapshot(const kube::VolumeGroupSnapshot& group) = 0;
  // The group content sync; kSyncSnapshot: the group snapshot its ref names
  // lags it and should sync too.
  virtual base::Result<ContentSyncOutcome> SyncContent(
      const kube::VolumeGroupSnapshotContent& content) = 0;
  // The group snapshot left the informer (deleted from the API): ends its
  // DeleteGroupSnapshot operation in the metrics (§4.6). The loop then
  // queues the group content it was bound to and its member snapshots.
  virtual void SnapshotDeleted(const kube::VolumeGroupSnapshot& group) = 0;
};

}  // namespace snapshot_controller
