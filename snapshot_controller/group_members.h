// GroupMembers: the member VolumeSnapshots and contents of a dynamic
// VolumeGroupSnapshot (docs/snapshots.md §4.7), made once the sidecar has
// reported the group: its content's status has a volumeGroupSnapshotHandle
// and a non-empty volumeSnapshotInfoList. For each entry, in order:
//   1. the content snapcontent-<sha256hex(group UID + volumeHandle)>, with the
//      annotation groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle (so
//      the sidecar never calls CreateSnapshot for it), a reference to the
//      member snapshot, the volume handle, the group content's driver and
//      deletion policy, the source volume's volumeMode, and the
//      deletion-secret annotations of the class's group-snapshotter Secret;
//   2. the snapshot snapshot-<sha256hex(...)> in the group's namespace, owned
//      by the group snapshot, with the volumesnapshot-in-group-protection
//      finalizer and the source volume's claim as persistentVolumeClaimName;
//   3. the content's ref gets the snapshot's UID; the snapshot's status its
//      content's name and status.volumeGroupSnapshotName; the content's
//      status the entry's handles, creationTime, restoreSize and readyToUse.
// Each is created only when the cache lacks it (AlreadyExists: read), and
// written only when it differs, so a group synced again costs no write. A
// member never goes from ready back to unready (§9.11): an entry that says
// not ready leaves a ready member content as it is. Errors read as upstream's
// ("createIndividualSnapshotForGroupSnapshot: ..."); members already made stay.
//
// Thread-safe: it keeps no state of its own.
#pragma once

#include <optional>

#include "base/result.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

class GroupMembers {
 public:
  // `caches.groups` must be set.
  GroupMembers(ControllerApi& api, const Caches& caches) : api_(api), caches_(caches) {}

  base::Status Ensure(const kube::VolumeGroupSnapshot& group,
                      const kube::VolumeGroupSnapshotContent& content);

 private:
  // The Secret the members' contents name for their deletion.
  base::Result<std::optional<kube::SecretReference>> DeletionSecret(
      const kube::VolumeGroupSnapshot& group, const kube::VolumeGroupSnapshotContent& content);
  base::Status EnsureMember(const kube::VolumeGroupSnapshot& group,
                            const kube::VolumeGroupSnapshotContent& group_content,
                            const kube::VolumeSnapshotInfo& info,
                            const std::optional<kube::SecretReference>& secret);

  ControllerApi& api_;
  const Caches& caches_;
};

}  // namespace snapshot_controller
