// Which VolumeSnapshot and VolumeSnapshotContent events put work on the
// snapshot-controller's queues, and in which lane (docs/snapshots.md §4.2,
// §9.3, §9.5). Pure functions of the objects, so each rule is tested on its
// own; the Controller wires them to the queues.
#pragma once

#include <optional>
#include <string>

#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/work_queue.h"

namespace snapshot_controller {

// A VolumeSnapshot update is worth a sync unless all that changed is what
// the controller writes itself (§9.3): the status (no one else writes it) and
// its own finalizers (kSnapshotFinalizers), besides the resourceVersion.
// Other writers' finalizers, the spec, labels, annotations and the
// deletionTimestamp count. A resync always counts.
bool ShouldSyncSnapshotUpdate(const kube::VolumeSnapshot& old_snapshot,
                              const kube::VolumeSnapshot& new_snapshot);

// A content update is worth a sync unless all that changed is what the
// controller writes itself (§9.3): the volumesnapshot-being-deleted
// annotation and the addition of the bound-protection finalizer. Everything
// the sidecar writes counts: the status, which the controller mirrors into
// the VolumeSnapshot (§4.4), and the finalizer's removal. A resync always
// counts.
bool ShouldSyncContentUpdate(const kube::VolumeSnapshotContent& old_content,
                             const kube::VolumeSnapshotContent& new_content);

// The snapshot queue's lane (§9.5): urgent while the VolumeSnapshot needs
// action (being deleted, or not ready to use), so new snapshots and deletions
// overtake a flood of resyncs of ready ones (#1148) without starving them
// (kube::WorkQueue's burst rule); normal for ready snapshots.
kube::WorkQueue::Lane SnapshotLane(const kube::VolumeSnapshot& snapshot);

// The content queue's lane (§9.5): the sidecar's rule (snapshot::
// ContentLane: urgent while being deleted or not ready), and urgent too for a
// bound content that still lacks the bound-protection finalizer (§4.4), which
// may already be ready when a pre-provisioned snapshot binds it.
kube::WorkQueue::Lane ContentLane(const kube::VolumeSnapshotContent& content);

// The snapshot queue's key ("namespace/name") of the VolumeSnapshot the
// content's volumeSnapshotRef names; none when the ref names none.
std::optional<std::string> SnapshotKeyOf(const kube::VolumeSnapshotContent& content);

// The content a VolumeSnapshot is bound to (status.boundVolumeSnapshotContentName);
// none while unbound.
std::optional<std::string> BoundContentOf(const kube::VolumeSnapshot& snapshot);

}  // namespace snapshot_controller
