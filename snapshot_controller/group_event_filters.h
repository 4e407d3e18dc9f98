// Which VolumeGroupSnapshot and VolumeGroupSnapshotContent events put work on
// the snapshot-controller's group queues, and in which lane
// (docs/snapshots.md §4.2, §4.7, §9.3, §9.5): the rules of event_filters.h
// for the group kinds, under the same names, so one loop (KindPairLoop)
// drives both pairs of kinds. Pure functions of the objects.
#pragma once

#include <optional>
#include <string>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/runtime/work_queue.h"

namespace snapshot_controller {

// A group snapshot update is worth a sync unless all that changed is what
// the controller writes itself (§9.3): the status and its bound-protection
// finalizer. A resync always counts.
bool ShouldSyncSnapshotUpdate(const kube::VolumeGroupSnapshot& old_group,
                              const kube::VolumeGroupSnapshot& new_group);

// A group content update is worth a sync unless all that changed is the
// controller's volumegroupsnapshot-being-deleted annotation or its addition
// of the bound-protection finalizer. What the sidecar writes counts: the
// status, which the group snapshot mirrors and its members are made from,
// and the finalizer's removal. A resync always counts.
bool ShouldSyncContentUpdate(const kube::VolumeGroupSnapshotContent& old_content,
                             const kube::VolumeGroupSnapshotContent& new_content);

// Urgent while the group snapshot needs action (being deleted, or not ready
// to use); normal for ready ones (§9.5).
kube::WorkQueue::Lane SnapshotLane(const kube::VolumeGroupSnapshot& group);

// Urgent while the group content needs action: being deleted, not ready, or
// bound and still lacking the bound-protection finalizer; normal otherwise.
kube::WorkQueue::Lane ContentLane(const kube::VolumeGroupSnapshotContent& content);

// The group snapshot queue's key ("namespace/name") of the group snapshot
// the content's volumeGroupSnapshotRef names; none when it names none.
std::optional<std::string> SnapshotKeyOf(const kube::VolumeGroupSnapshotContent& content);

// status.boundVolumeGroupSnapshotContentName; none while unbound.
std::optional<std::string> BoundContentOf(const kube::VolumeGroupSnapshot& group);

}  // namespace snapshot_controller
