// Which VolumeSnapshots belong to which VolumeGroupSnapshot
// (docs/snapshots.md §4.3, §4.5 step 3, §4.7), as upstream tells: a member
// has an owner reference of kind VolumeGroupSnapshot and apiVersion
// groupsnapshot.storage.k8s.io/v1, whose name is its group's (in the
// member's namespace).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/object_meta.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/store.h"
#include "snapshot_controller/caches.h"

namespace snapshot_controller {

// "namespace/name": how upstream's messages name a group snapshot.
inline std::string GroupKey(const kube::VolumeGroupSnapshot& group) {
  return kube::Store<kube::VolumeGroupSnapshot>::KeyOf(group);
}

// The name of the group snapshot `snapshot` belongs to; none for a plain
// snapshot.
std::optional<std::string> GroupOf(const kube::VolumeSnapshot& snapshot);

inline bool IsGroupMember(const kube::VolumeSnapshot& snapshot) {
  return GroupOf(snapshot).has_value();
}

// The owner reference a member gets: the group's apiVersion, kind, name and UID.
kube::OwnerReference OwnerReferenceTo(const kube::VolumeGroupSnapshot& group);

// The cached snapshots of `group`'s namespace that belong to it, by name.
std::vector<std::shared_ptr<const kube::VolumeSnapshot>> MembersOf(
    const kube::VolumeGroupSnapshot& group, const kube::Store<kube::VolumeSnapshot>& snapshots);

// The name of the group snapshot a member content belongs to (§4.3 "Copying
// the status": status.volumeGroupSnapshotName): the ref of the cached group
// content whose status has the content's volumeGroupSnapshotHandle. "" for a
// content of no group, when no group content has that handle, and while
// group snapshots are off (§9.13).
std::string GroupSnapshotNameOf(const kube::VolumeSnapshotContent& content, const Caches& caches);

// Whether the group snapshot that `snapshot`'s status.volumeGroupSnapshotName
// names keeps it from being deleted (§4.5 step 3): while that group snapshot
// is in the cache, and always while group snapshots are off, as the
// controller cannot tell then (§9.13). False when the status names none.
bool HeldByGroup(const kube::VolumeSnapshot& snapshot, const Caches& caches);

// The status names a group snapshot the cache no longer holds (group
// snapshots on): the volumesnapshot-in-group-protection finalizer may go.
bool GroupIsGone(const kube::VolumeSnapshot& snapshot, const Caches& caches);

}  // namespace snapshot_controller
