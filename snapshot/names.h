// The strings both snapshot binaries must read and write exactly as upstream
// does (docs/snapshots.md §3.4-§3.6, §4.3, §4.7): the annotations, finalizers
// and label on VolumeSnapshotContents and VolumeGroupSnapshotContents, which
// the controller and the sidecar pass between them, and the class parameters
// naming a Secret, which the controller resolves for a new content and the
// sidecar for its own calls. The sidecar's own names are in
// snapshotter/names.h, the controller's in snapshot_controller/names.h.
#pragma once

#include <string_view>

namespace snapshot {

// Set by the sidecar while a CreateSnapshot may be in flight (§3.4 create
// step 3); a content carrying it is never deleted (§3.4 step 1 (b)).
inline constexpr std::string_view kBeingCreatedAnnotation =
    "snapshot.storage.kubernetes.io/volumesnapshot-being-created";
// Set by the controller once the VolumeSnapshot is being deleted (§3.4 step 1 (c)).
inline constexpr std::string_view kBeingDeletedAnnotation =
    "snapshot.storage.kubernetes.io/volumesnapshot-being-deleted";
// Marks a content that is a member of a group snapshot (§3.4 step 2).
inline constexpr std::string_view kGroupSnapshotHandleAnnotation =
    "groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle";
// The Secret whose data are the credentials of CreateSnapshot and DeleteSnapshot.
inline constexpr std::string_view kDeletionSecretNameAnnotation =
    "snapshot.storage.kubernetes.io/deletion-secret-name";
inline constexpr std::string_view kDeletionSecretNamespaceAnnotation =
    "snapshot.storage.kubernetes.io/deletion-secret-namespace";

// The controller puts it on every bound content; the sidecar removes it once
// the snapshot is deleted or retained.
inline constexpr std::string_view kContentFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection";

// Group snapshots (docs/snapshots.md §3.8, §4.7): the same shape as single ones.
inline constexpr std::string_view kGroupBeingCreatedAnnotation =
    "groupsnapshot.storage.kubernetes.io/volumegroupsnapshot-being-created";
inline constexpr std::string_view kGroupBeingDeletedAnnotation =
    "groupsnapshot.storage.kubernetes.io/volumegroupsnapshot-being-deleted";
inline constexpr std::string_view kGroupDeletionSecretNameAnnotation =
    "groupsnapshot.storage.kubernetes.io/deletion-secret-name";
inline constexpr std::string_view kGroupDeletionSecretNamespaceAnnotation =
    "groupsnapshot.storage.kubernetes.io/deletion-secret-namespace";
inline constexpr std::string_view kGroupContentFinalizer =
    "groupsnapshot.storage.kubernetes.io/volumegroupsnapshotcontent-bound-protection";

// Under --node-deployment the sidecar sees only the contents carrying this
// label with its node's name; the controller sets it (§3.1).
inline constexpr std::string_view kManagedByLabel = "snapshot.storage.kubernetes.io/managed-by";

// The Secret of CreateSnapshot and DeleteSnapshot; the controller resolves
// these templates into the deletion-secret annotations (§3.5).
inline constexpr std::string_view kSnapshotterSecretNameKey =
    "csi.storage.k8s.io/snapshotter-secret-name";
inline constexpr std::string_view kSnapshotterSecretNamespaceKey =
    "csi.storage.k8s.io/snapshotter-secret-namespace";
// The Secret of ListSnapshots (§3.6).
inline constexpr std::string_view kListSecretNameKey =
    "csi.storage.k8s.io/snapshotter-list-secret-name";
inline constexpr std::string_view kListSecretNamespaceKey =
    "csi.storage.k8s.io/snapshotter-list-secret-namespace";
// The group class's: the Secret of CreateVolumeGroupSnapshot and
// DeleteVolumeGroupSnapshot, and that of GetVolumeGroupSnapshot (§3.5, §4.7).
inline constexpr std::string_view kGroupSnapshotterSecretNameKey =
    "csi.storage.k8s.io/group-snapshotter-secret-name";
inline constexpr std::string_view kGroupSnapshotterSecretNamespaceKey =
    "csi.storage.k8s.io/group-snapshotter-secret-namespace";
inline constexpr std::string_view kGroupSnapshotterGetSecretNameKey =
    "csi.storage.k8s.io/group-snapshotter-get-secret-name";
inline constexpr std::string_view kGroupSnapshotterGetSecretNamespaceKey =
    "csi.storage.k8s.io/group-snapshotter-get-secret-namespace";

}  // namespace snapshot
