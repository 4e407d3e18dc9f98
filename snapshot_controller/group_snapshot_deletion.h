// GroupSnapshotDeletion: what happens once a VolumeGroupSnapshot has a
// deletionTimestamp (docs/snapshots.md §4.7), upstream's
// processGroupSnapshotWithDeletionTimestamp in one pass:
//   0. the DeleteGroupSnapshot operation starts in the metrics (§4.6); a
//      group snapshot without the bound-protection finalizer needs nothing
//      more;
//   1. its content: status.boundVolumeGroupSnapshotContentName, else
//      groupsnapcontent-<uid> for a dynamic one (upstream means to, but its
//      check never holds, leaving such a content behind), from the cache,
//      and only if it names the group snapshot back;
//   2. a member snapshot a Pending claim of the namespace restores from
//      holds the deletion: a Warning SnapshotDeletePending on the group
//      snapshot (at most once per 5 minutes, §9.7) and an error (retried);
//   3. the content is marked volumegroupsnapshot-being-deleted, whatever its
//      policy;
//   4. under policy Delete the content is DELETEd unless already being
//      deleted (NotFound: gone); a failure is a Warning
//      GroupSnapshotContentObjectDeleteError;
//   5. every member snapshot not yet being deleted is DELETEd (NotFound:
//      gone); a failure is a Warning SnapshotDeleteError. Each member's own
//      deletion waits until the group snapshot is gone (§4.5 step 3);
//   6. the bound-protection finalizer goes, unless a content of policy
//      Delete still exists: it stays until the sidecar has deleted the group
//      on the backend and the content is gone, whose deletion event syncs
//      the group snapshot again. By a guarded JSON Patch (§9.4), not
//      upstream's PUT.
//
// Thread-safe: many workers delete different group snapshots at once.
#pragma once

#include <memory>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/event_throttle.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

class GroupSnapshotDeletion {
 public:
  // `caches.groups` must be set.
  GroupSnapshotDeletion(ControllerApi& api, const Caches& caches, ControllerEvents& events,
                        OperationMetrics& metrics, base::Clock& clock);

  base::Status Delete(const kube::VolumeGroupSnapshot& group);

 private:
  using ContentPtr = std::shared_ptr<const kube::VolumeGroupSnapshotContent>;

  // Step 1: the group snapshot's content, or nullptr.
  ContentPtr ContentOf(const kube::VolumeGroupSnapshot& group) const;
  // Step 2: an error while a member restores a claim.
  base::Status CheckNotRestoring(const kube::VolumeGroupSnapshot& group);
  // Step 5.
  base::Status DeleteMembers(const kube::VolumeGroupSnapshot& group);

  ControllerApi& api_;
  const Caches& caches_;
  ControllerEvents& events_;
  OperationMetrics& metrics_;
  EventThrottle pending_events_;
};

}  // namespace snapshot_controller
