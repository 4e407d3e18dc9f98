// GroupContentSync: the controller's side of a VolumeGroupSnapshotContent
// (docs/snapshots.md §4.7), upstream's syncGroupSnapshotContent in one pass:
//   1. not exactly one of volumeHandles (non-empty) and groupSnapshotHandles:
//      a Warning GroupContentValidationError and an error (retried);
//   2. volumeGroupSnapshotRef.uid empty: done, the group snapshot's sync
//      binds it;
//   3. the volumegroupsnapshotcontent-bound-protection finalizer added
//      unless the content has it or is being deleted;
//   4. kSyncSnapshot when the group snapshot the ref names (from the cache,
//      same UID) lags the content's status (GroupStatusLagsContent): that is
//      how a group snapshot learns its content was created, and its members
//      get made.
// Our own write brings no new sync (§9.3), so step 4 follows step 3's write
// in the same call where upstream waits for the update. A group snapshot
// missing from the cache never causes a deletion.
//
// Thread-safe: many workers sync different group contents at once.
#pragma once

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/controller_handler.h"

namespace snapshot_controller {

class GroupContentSync {
 public:
  // `caches.groups` must be set.
  GroupContentSync(ControllerApi& api, const Caches& caches, ControllerEvents& events)
      : api_(api), groups_(*caches.groups), events_(events) {}

  base::Result<ContentSyncOutcome> Sync(const kube::VolumeGroupSnapshotContent& content);

 private:
  ControllerApi& api_;
  const GroupCaches& groups_;
  ControllerEvents& events_;
};

}  // namespace snapshot_controller
