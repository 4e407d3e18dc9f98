// SnapshotDeletion: what happens once a VolumeSnapshot has a
// deletionTimestamp (docs/snapshots.md §4.5), in one pass, each step going on
// from the previous one's write (our writes bring no new sync, §9.3):
//   0. the DeleteSnapshot operation starts in the metrics (§4.6); a snapshot
//      without the as-source or bound finalizer needs nothing more;
//   1. its content: status.boundVolumeSnapshotContentName, else
//      snapcontent-<uid> for a dynamic snapshot, from the cache, and only if
//      its volumeSnapshotRef points back;
//   2. with a content, a Pending claim of the namespace restoring from the
//      snapshot holds the deletion: a Warning SnapshotDeletePending naming
//      the claim (§9.7), and an error so the snapshot is retried;
//   3. a group member (status.volumeGroupSnapshotName) waits the same way,
//      with upstream's message, while its group snapshot exists, and always
//      while group snapshots are off: then the controller cannot tell the
//      group snapshot is gone (§9.13); once it is gone, step 6 also removes
//      the volumesnapshot-in-group-protection finalizer;
//   4. the content is marked volumesnapshot-being-deleted, whatever its
//      policy;
//   5. under policy Delete the content is DELETEd unless already being
//      deleted (NotFound: gone); a failure is a Warning
//      SnapshotContentObjectDeleteError;
//   6. the source claim's finalizer goes unless another unready snapshot
//      needs it (a failure is a Warning ErrorPVCFinalizer), then the
//      snapshot's as-source and bound-protection finalizers, by one guarded
//      JSON Patch, not upstream's PUT. While a content of policy Delete
//      still exists and the snapshot has the bound-protection finalizer,
//      both stay: the sidecar has yet to delete the backend snapshot, and
//      the content's deletion event syncs the snapshot again once it is
//      gone. Upstream removes the as-source one at once, in a write of its
//      own (§9.4).
// SnapshotDeletePending is recorded at most once per 5 minutes per snapshot
// (§9.7). Errors read as upstream's.
//
// Thread-safe: many workers delete different snapshots at once.
#pragma once

#include <memory>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/event_throttle.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

class SnapshotDeletion {
 public:
  SnapshotDeletion(ControllerApi& api, const Caches& caches, ClaimFinalizer& claim_finalizer,
                   ControllerEvents& events, OperationMetrics& metrics, base::Clock& clock);

  base::Status Delete(const kube::VolumeSnapshot& snapshot);

 private:
  using ContentPtr = std::shared_ptr<const kube::VolumeSnapshotContent>;

  // Step 1: the snapshot's content, or nullptr.
  ContentPtr ContentOf(const kube::VolumeSnapshot& snapshot) const;
  // Steps 2 and 3: an error while the deletion must wait.
  base::Status CheckNotInUse(const kube::VolumeSnapshot& snapshot, bool has_content);
  // Records SnapshotDeletePending unless it was recorded lately; returns
  // `error` for the retry.
  base::Error Pending(const kube::VolumeSnapshot& snapshot, const std::string& message,
                      base::Error error);
  // Steps 4 and 5; answers whether the content still exists with policy
  // Delete, holding the bound-protection finalizer.
  base::Result<bool> MarkAndDeleteContent(const kube::VolumeSnapshot& snapshot,
                                          const kube::VolumeSnapshotContent& content);
  // Step 6.
  base::Status RemoveFinalizers(const kube::VolumeSnapshot& snapshot, bool keep_bound);

  ControllerApi& api_;
  const Caches& caches_;
  ClaimFinalizer& claim_finalizer_;
  ControllerEvents& events_;
  OperationMetrics& metrics_;
  EventThrottle pending_events_;
};

}  // namespace snapshot_controller
