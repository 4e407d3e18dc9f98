// ContentSync: the controller's side of a VolumeSnapshotContent
// (docs/snapshots.md §4.4), in one pass:
//   1. not exactly one of volumeHandle and snapshotHandle: a Warning
//      ContentValidationError on the content and an error (retried), as
//      upstream; nothing is written to the content;
//   2. volumeSnapshotRef.uid empty: done, the VolumeSnapshot's sync binds it;
//   3. the volumesnapshotcontent-bound-protection finalizer added unless the
//      content has it or is being deleted;
//   4. the VolumeSnapshot the ref names, from the cache and with the same
//      UID: being deleted with a finalizer of the deletion flow left
//      (IsDeletionCandidate) -> the content is marked being deleted;
//   5. kSyncSnapshot when that snapshot's status lags the content's
//      (SnapshotStatusLagsContent).
// Our own writes bring no new sync (§9.3), so steps 4 and 5 follow step 3's
// write in the same call where upstream waits for the update. A snapshot
// missing from the cache (or one of another UID under the same name) never
// causes a deletion: YAML copied into another cluster must not delete data.
//
// Thread-safe: many workers sync different contents at once.
#pragma once

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/controller_handler.h"

namespace snapshot_controller {

class ContentSync {
 public:
  ContentSync(ControllerApi& api, const Caches& caches, ControllerEvents& events)
      : api_(api), caches_(caches), events_(events) {}

  base::Result<ContentSyncOutcome> Sync(const kube::VolumeSnapshotContent& content);

 private:
  ControllerApi& api_;
  const Caches& caches_;
  ControllerEvents& events_;
};

}  // namespace snapshot_controller
