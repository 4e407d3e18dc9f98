// The status a VolumeGroupSnapshot gets from its bound group content, and the
// Normal Events that change brings (docs/snapshots.md §4.7), by the rules of
// a VolumeSnapshot's (§4.3 "Copying the status", snapshotter/snapshot_status.h)
// without the restore size: a nil status gets everything the content has; an
// existing one gets the content's name and creationTime when it has none,
// readyToUse always (false when the content has none; an error goes when it
// turns ready), and the content's error by ErrorAfter. Pure.
#pragma once

#include <optional>
#include <vector>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/snapshot_status.h"

namespace snapshot_controller {

struct GroupStatusChange {
  kube::VolumeGroupSnapshotStatus status;
  // GroupSnapshotCreated when creationTime first appears, GroupSnapshotReady
  // when readyToUse turns true; in that order, with upstream's messages.
  std::vector<SnapshotNormalEvent> events;
};

// nullopt when nothing changes.
std::optional<GroupStatusChange> GroupStatusFromContent(
    const kube::VolumeGroupSnapshot& group, const kube::VolumeGroupSnapshotContent& content);

// Whether a group content's sync should queue its group snapshot
// (upstream's needsUpdateGroupSnapshotStatus): the content has a status and
// the group snapshot has none, or no bound name, or lacks a creationTime the
// content has; or the content carries readyToUse at all (upstream compares
// the two readyToUse pointers, which always differ).
bool GroupStatusLagsContent(const kube::VolumeGroupSnapshot& group,
                            const kube::VolumeGroupSnapshotContent& content);

}  // namespace snapshot_controller
