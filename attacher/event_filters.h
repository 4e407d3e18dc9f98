// Which informer events put work on the controller's queues (BEHAVIOR.md
// §5.1). Pure functions of the objects, so each rule is tested on its own; the
// controller wires them to the queues.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kube/persistent_volume.h"
#include "kube/volume_attachment.h"

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

// The PersistentVolume whose finalizer may be removable once `deleted_va` is
// gone: its spec.source.persistentVolumeName (none for inline volumes).
const std::optional<std::string>& PersistentVolumeToSyncOnDelete(
    const kube::VolumeAttachment& deleted_va);

// A PersistentVolume add/update needs the PV queue only when the PV carries
// `finalizer` (ours) and is being deleted: removing that finalizer is the only
// work the PV queue does. Upstream also enqueues in-tree PVs whose
// pv.kubernetes.io/migrated-to annotation is not our driver (a CSI migration
// rollback); that clause joins this predicate with the migration layer, which
// is why it takes the whole PV.
bool ShouldEnqueuePersistentVolume(const kube::PersistentVolume& pv, std::string_view finalizer);

}  // namespace attacher
