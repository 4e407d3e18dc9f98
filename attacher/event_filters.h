// Which informer events put work on the controller's queues (docs/attacher.md
// §5.1). Pure functions of the objects, so each rule is tested on its own; the
// controller wires them to the queues.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/work_queue.h"

namespace attacher {

// A VolumeAttachment update is worth a sync unless all that changed is
// status.attachError / status.detachError (and the resourceVersion): those
// are the handler's own writes after a failure, and syncing on them would
// retry at once and bypass the backoff (#337). An update with an unchanged
// resourceVersion is a resync and always counts, so failed attachments are
// retried at least once per resync period. Objects of other drivers count
// too: the sync skips them, as upstream does.
bool ShouldEnqueueVolumeAttachmentUpdate(const kube::VolumeAttachment& old_va,
                                         const kube::VolumeAttachment& new_va);

// The VolumeAttachment queue's lane for a sync of `va`: urgent for an attach
// still to be done (no deletionTimestamp, status.attached false), so new
// attachments overtake a burst of queued detaches (#761); normal for detaches
// and for resyncs of attached volumes.
kube::WorkQueue::Lane VolumeAttachmentLane(const kube::VolumeAttachment& va);

// The PersistentVolume whose finalizer may be removable once `deleted_va` is
// gone: its spec.source.persistentVolumeName (none for inline volumes).
const std::optional<std::string>& PersistentVolumeToSyncOnDelete(
    const kube::VolumeAttachment& deleted_va);

// Whether `pv` is an in-tree PV (migration::IsPvMigratable) whose
// pv.kubernetes.io/migrated-to annotation is missing or names another driver
// than `driver`: CSI migration was turned off (rolled back), so the attacher
// lets go of the PV.
bool IsMigrationRollback(const kube::PersistentVolume& pv, std::string_view driver);

// A PersistentVolume add/update needs the PV queue only when the PV carries
// `finalizer` (ours, for `driver`) and is being deleted or its migration was
// rolled back: removing that finalizer is the only work the PV queue does.
bool ShouldEnqueuePersistentVolume(const kube::PersistentVolume& pv, std::string_view finalizer,
                                   std::string_view driver);

}  // namespace attacher
