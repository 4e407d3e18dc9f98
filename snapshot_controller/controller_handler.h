// ControllerHandler: what the snapshot-controller's loop calls for each queued
// object (docs/snapshots.md §4.2-§4.5). The loop owns the informers and the
// queues "snapshot-controller-snapshot" and "snapshot-controller-content";
// the handler decides and writes. It makes no CSI calls.
//
// Each call gets the object as the informer's store holds it when the sync
// starts. An error has the object retried with the error backoff
// (--retry-interval-start doubling up to --retry-interval-max); success
// forgets the backoff. Implementations are called from many worker threads
// at once, never twice concurrently for the same object.
#pragma once

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshot_controller {

enum class ContentSyncOutcome {
  kDone,
  // The content's VolumeSnapshot should sync too: its status lags the
  // content's (§4.4), so the loop queues the snapshot the content names.
  kSyncSnapshot,
};

class ControllerHandler {
 public:
  virtual ~ControllerHandler() = default;

  // The VolumeSnapshot sync (§4.3), or its deletion (§4.5) once it has a
  // deletionTimestamp.
  virtual base::Status SyncSnapshot(const kube::VolumeSnapshot& snapshot) = 0;
  // The content sync (§4.4).
  virtual base::Result<ContentSyncOutcome> SyncContent(
      const kube::VolumeSnapshotContent& content) = 0;
  // The VolumeSnapshot left the informer (deleted from the API): ends its
  // DeleteSnapshot operation in the metrics (§4.6). The loop then queues the
  // content the snapshot was bound to.
  virtual void SnapshotDeleted(const kube::VolumeSnapshot& snapshot) = 0;
};

}  // namespace snapshot_controller
