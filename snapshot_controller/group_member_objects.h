// The member objects of a dynamic VolumeGroupSnapshot as the controller makes
// them (docs/snapshots.md §4.7), pure: their names, the member content and
// snapshot built from the group, its content, one entry of the content's
// volumeSnapshotInfoList and the source volume, and the status a member
// content gets from that entry. GroupMembers writes them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/store.h"

namespace snapshot_controller {

// "snapshot-<hex>" and "snapcontent-<hex>", hex being the lowercase SHA-256
// of the group snapshot's UID followed by the volume handle.
std::string MemberSnapshotName(std::string_view group_uid, std::string_view volume_handle);
std::string MemberContentName(std::string_view group_uid, std::string_view volume_handle);

// The cached CSI volume of `driver` with `volume_handle`; nullptr when there
// is none, or more than one (upstream then makes the member without it).
std::shared_ptr<const kube::PersistentVolume> VolumeOfHandle(
    const kube::Store<kube::PersistentVolume>& volumes, std::string_view driver,
    std::string_view volume_handle);

// The member content of `info`: its name, the group handle annotation, a
// reference (kind, name, namespace) to the member snapshot, the volume
// handle, the group content's driver and deletion policy, the volume's
// volumeMode when the volume is known, and the deletion-secret annotations
// when `secret` is set. Needs the group content's status handle.
kube::VolumeSnapshotContent MemberContentFor(const kube::VolumeGroupSnapshot& group,
                                             const kube::VolumeGroupSnapshotContent& content,
                                             const kube::VolumeSnapshotInfo& info,
                                             const kube::PersistentVolume* volume,
                                             const std::optional<kube::SecretReference>& secret);

// The member snapshot of `info`: its name in the group content's ref's
// namespace, an owner reference to the group snapshot, the
// volumesnapshot-in-group-protection finalizer, and the volume's claim as
// its source ("" when the volume is not known).
kube::VolumeSnapshot MemberSnapshotFor(const kube::VolumeGroupSnapshot& group,
                                       const kube::VolumeGroupSnapshotContent& content,
                                       const kube::VolumeSnapshotInfo& info,
                                       const kube::PersistentVolume* volume);

// The member content's status with `info`'s facts: its snapshot handle, the
// group handle, the creationTime and restoreSize `info` has (others kept),
// and readyToUse - which never goes from true back to false (§9.11: an entry
// the sidecar wrote before the group was ready may still say false). nullopt
// when nothing changes.
std::optional<kube::VolumeSnapshotContentStatus> MemberContentStatus(
    const std::optional<kube::VolumeSnapshotContentStatus>& current,
    const kube::VolumeSnapshotInfo& info, const std::string& group_handle);

}  // namespace snapshot_controller
