// Which content events put work on the sidecar's queues (docs/snapshots.md
// §3.3, §3.8, §9.3; the lane they take, §9.5, is snapshot/content_lane.h):
// one overload per kind,
// VolumeSnapshotContent and VolumeGroupSnapshotContent, under the same
// rules. Pure functions of the objects, so each rule is tested on its own;
// the controller wires them to the queue.
#pragma once

#include <string_view>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

// Upstream's isDriverMatch (§3.3): the content has a source (a volumeHandle
// or a snapshotHandle; for a group, volumeHandles or groupSnapshotHandles),
// names `driver`, and its class, when it is known (`content_class`
// non-null), names `driver` too. A class that cannot be found does not
// disqualify the content.
bool IsDriverMatch(const kube::VolumeSnapshotContent& content, std::string_view driver,
                   const kube::VolumeSnapshotClass* content_class);
bool IsDriverMatch(const kube::VolumeGroupSnapshotContent& content, std::string_view driver,
                   const kube::VolumeGroupSnapshotClass* content_class);

// A content update is worth a sync unless all that changed is what the
// sidecar writes itself or never reads (§9.3): status, the kind's
// being-created annotation, the finalizers (the sidecar only removes its
// own, and no decision of the sync turns on them; upstream ignores them too)
// and the resourceVersion (managedFields are not decoded). Syncing on its
// own writes would retry at once and bypass both the error backoff and the
// readiness cadence (#533, #778, #1282). An update with an unchanged
// resourceVersion is a resync and always counts. Unlike upstream (#1392),
// readyToUse turning true does not count either: it is the sidecar's own
// status write, and deletion is decided again after every create answer
// within the sync that got it (§9.1).
bool ShouldEnqueueContentUpdate(const kube::VolumeSnapshotContent& old_content,
                                const kube::VolumeSnapshotContent& new_content);
bool ShouldEnqueueContentUpdate(const kube::VolumeGroupSnapshotContent& old_content,
                                const kube::VolumeGroupSnapshotContent& new_content);

}  // namespace snapshotter
