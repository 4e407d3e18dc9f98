// Readiness of a content and the work-queue lane it takes (docs/snapshots.md
// §9.5), for both content kinds, VolumeSnapshotContent and
// VolumeGroupSnapshotContent: the sidecar queues its contents by this rule,
// and the snapshot-controller by it too, with one urgent case of its own (a
// bound content still without its finalizer). Pure functions of the object.
#pragma once

#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/work_queue.h"

namespace snapshot {

// status.readyToUse is true (a missing status or field is not ready).
bool IsReady(const kube::VolumeSnapshotContent& content);
bool IsReady(const kube::VolumeGroupSnapshotContent& content);

// Urgent while the content needs action (being deleted, no status yet, or
// not ready), so new snapshots and deletions overtake a flood of resyncs of
// ready contents (#1148) without starving them (kube::WorkQueue's burst
// rule); normal for ready contents.
kube::WorkQueue::Lane ContentLane(const kube::VolumeSnapshotContent& content);
kube::WorkQueue::Lane ContentLane(const kube::VolumeGroupSnapshotContent& content);

}  // namespace snapshot
