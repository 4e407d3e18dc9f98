// Questions about a VolumeSnapshot (and its content) that more than one of the
// controller's syncs asks (docs/snapshots.md §4.4, §4.5), answered as
// upstream's helpers of the same meaning do.
#pragma once

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshot_controller {

// Being deleted and still holding a finalizer the deletion flow removes
// (as-source or bound-protection): the deletion has work left (§4.5), and its
// content is marked being deleted (§4.4). The in-group finalizer alone does
// not count, as upstream's IsSnapshotDeletionCandidate.
bool IsDeletionCandidate(const kube::VolumeSnapshot& snapshot);

// The content's volumeSnapshotRef names the snapshot, UID included: only
// then does the content belong to it (§4.5 step 1).
bool PointsBackTo(const kube::VolumeSnapshotContent& content, const kube::VolumeSnapshot& snapshot);

// The same for a group (§4.7): being deleted and still holding the
// volumegroupsnapshot-bound-protection finalizer; the group content's
// volumeGroupSnapshotRef names the group snapshot, UID included.
bool IsDeletionCandidate(const kube::VolumeGroupSnapshot& group);
bool PointsBackTo(const kube::VolumeGroupSnapshotContent& content,
                  const kube::VolumeGroupSnapshot& group);

}  // namespace snapshot_controller
