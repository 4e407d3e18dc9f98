// ContentSync: the controller's side of a VolumeSnapshotContent
// (docs/snapshots.md §4.4): validate the source, wait for a bound snapshot's
// UID, add the bound-protection finalizer, mark the content once its
// snapshot is being deleted, and ask for the snapshot's sync when its status
// lags the content's. A snapshot missing from the cache never causes a
// deletion.
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
  ContentSync(ControllerApi& api, const Caches& caches, ControllerEvents& events);

  base::Result<ContentSyncOutcome> Sync(const kube::VolumeSnapshotContent& content);
};

}  // namespace snapshot_controller
