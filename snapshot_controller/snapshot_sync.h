// SnapshotSync: the VolumeSnapshot sync of a snapshot that is not being
// deleted (docs/snapshots.md §4.3 steps 0 and 3-5): the class (the default
// one of the source volume's driver when none is named), source validation,
// the VolumeSnapshot's finalizers, the dynamic content's creation
// (ContentCreation) or a pre-provisioned content's binding, and the status
// copied from the bound content with its Normal Events; the sync whose
// status write makes the snapshot ready also lets go of the source claim's
// finalizer (§4.3 step 1).
// Errors are saved in the snapshot's status and reported as upstream's
// Warning Events, then returned so the snapshot is retried with backoff.
// Every write is computed from the cached snapshot (or the answer to our own
// write the cache has not caught up with) and the answers of earlier writes
// (SnapshotWriter, §9.4).
//
// Group members (an owner reference to a VolumeGroupSnapshot) only get their
// content's status copied, with the name of their group snapshot when the
// group caches know it (GroupSnapshotNameOf); with group snapshots off no
// group cache is consulted (§9.13).
//
// Thread-safe: many workers sync different snapshots at once.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/content_creation.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/handler_options.h"
#include "snapshot_controller/operation_metrics.h"
#include "snapshot_controller/snapshot_writer.h"
#include "snapshot_controller/written_snapshots.h"

namespace snapshot_controller {

class SnapshotSync {
 public:
  // `written` is shared by every sync of the snapshots (WrittenSnapshots).
  SnapshotSync(ControllerApi& api, const Caches& caches, ClaimFinalizer& claim_finalizer,
               WrittenSnapshots& written, ControllerEvents& events, OperationMetrics& metrics,
               HandlerOptions options, base::Clock& clock)
      : api_(api),
        caches_(caches),
        claim_finalizer_(claim_finalizer),
        written_(written),
        content_creation_(api, caches, claim_finalizer, events, options),
        events_(events),
        metrics_(metrics),
        clock_(clock) {}

  base::Status Sync(const kube::VolumeSnapshot& snapshot);

 private:
  using ContentPtr = std::shared_ptr<const kube::VolumeSnapshotContent>;

  // §4.3 step 0: a named class must exist; a dynamic snapshot without one
  // gets its driver's default class.
  base::Status EnsureClass(SnapshotWriter& writer);
  // §4.3 step 4.
  base::Status AddFinalizers(SnapshotWriter& writer);
  // The deletion policy of the content the snapshot is bound to, or that
  // this sync binds or creates: `content`'s (as PreProvisionedContent or
  // DynamicContent found it), else the class's of a dynamic snapshot whose
  // content this sync creates; "" when neither tells.
  std::string PolicyOfItsContent(const kube::VolumeSnapshot& snapshot,
                                 const ContentPtr& content) const;
  base::Status SyncReady(SnapshotWriter& writer);
  base::Status SyncUnready(SnapshotWriter& writer);
  base::Status SyncPreProvisioned(SnapshotWriter& writer);
  base::Status SyncGroupMember(SnapshotWriter& writer);
  base::Status SyncDynamic(SnapshotWriter& writer);

  // The content a snapshot names or would have, from the cache: nullptr
  // when the cache lacks it; an error (reported) when it is of the wrong
  // kind or bound to another snapshot.
  base::Result<ContentPtr> PreProvisionedContent(SnapshotWriter& writer);
  base::Result<ContentPtr> DynamicContent(SnapshotWriter& writer);
  // Sets the UID (and the class) of a pre-provisioned content's reference.
  base::Result<kube::VolumeSnapshotContent> Bind(const kube::VolumeSnapshot& snapshot,
                                                 const kube::VolumeSnapshotContent& content);

  // §4.3 step 1 for the sync whose status write made the snapshot ready: the
  // check at the start of every sync saw it unready, and our own write brings
  // no new sync (§9.3). A failure is a Warning ErrorPVCFinalizer and an error,
  // so the snapshot is retried and the next sync's check releases the claim.
  base::Status ReleaseClaim(const kube::VolumeSnapshot& snapshot);
  // Copies the content's status; its Normal Events and metrics follow the write.
  base::Status CopyStatus(SnapshotWriter& writer, const kube::VolumeSnapshotContent& content);
  // Saves status.error (and readyToUse false when `set_not_ready`) unless
  // the snapshot has that message already, then records the Warning Event
  // even when the write failed. Returns the write's outcome.
  base::Status ReportError(SnapshotWriter& writer, bool set_not_ready, std::string_view reason,
                           const std::string& message);

  ControllerApi& api_;
  const Caches& caches_;
  ClaimFinalizer& claim_finalizer_;
  WrittenSnapshots& written_;
  ContentCreation content_creation_;
  ControllerEvents& events_;
  OperationMetrics& metrics_;
  base::Clock& clock_;
};

}  // namespace snapshot_controller
