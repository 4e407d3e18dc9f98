// The strings a drop-in csi-snapshotter must read and write exactly as
// upstream does (docs/snapshots.md §3.1, §3.2, §3.4-§3.6): annotation, label
// and finalizer names on VolumeSnapshotContents, the reserved class parameter
// keys, the name of the snapshot CreateSnapshot is asked for, and the Lease.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace snapshotter {

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
inline constexpr std::string_view kGroupSnapshotBoundFinalizer =
    "groupsnapshot.storage.kubernetes.io/volumegroupsnapshot-bound-protection";

// Class parameters under this prefix are the sidecars' own and never reach
// the driver, except the extra create metadata keys below.
inline constexpr std::string_view kReservedParameterPrefix = "csi.storage.k8s.io/";
// The Secret of CreateSnapshot and DeleteSnapshot; the controller resolves
// these templates into the deletion-secret annotations (§3.5).
inline constexpr std::string_view kSnapshotterSecretNameKey =
    "csi.storage.k8s.io/snapshotter-secret-name";
inline constexpr std::string_view kSnapshotterSecretNamespaceKey =
    "csi.storage.k8s.io/snapshotter-secret-namespace";
inline constexpr std::string_view kListSecretNameKey =
    "csi.storage.k8s.io/snapshotter-list-secret-name";
inline constexpr std::string_view kListSecretNamespaceKey =
    "csi.storage.k8s.io/snapshotter-list-secret-namespace";
// The reserved keys upstream knows: dropped from the parameters (§3.4 create step 4).
inline constexpr std::string_view kGroupSnapshotterSecretNameKey =
    "csi.storage.k8s.io/group-snapshotter-secret-name";
inline constexpr std::string_view kGroupSnapshotterSecretNamespaceKey =
    "csi.storage.k8s.io/group-snapshotter-secret-namespace";
inline constexpr std::string_view kGroupSnapshotterGetSecretNameKey =
    "csi.storage.k8s.io/group-snapshotter-get-secret-name";
inline constexpr std::string_view kGroupSnapshotterGetSecretNamespaceKey =
    "csi.storage.k8s.io/group-snapshotter-get-secret-namespace";
inline constexpr std::array<std::string_view, 8> kKnownReservedParameterKeys = {
    kSnapshotterSecretNameKey,
    kSnapshotterSecretNamespaceKey,
    kListSecretNameKey,
    kListSecretNamespaceKey,
    kGroupSnapshotterSecretNameKey,
    kGroupSnapshotterSecretNamespaceKey,
    kGroupSnapshotterGetSecretNameKey,
    kGroupSnapshotterGetSecretNamespaceKey,
};
// Added with --extra-create-metadata (§3.4 create step 5).
inline constexpr std::string_view kVolumeSnapshotNameKey = "csi.storage.k8s.io/volumesnapshot/name";
inline constexpr std::string_view kVolumeSnapshotNamespaceKey =
    "csi.storage.k8s.io/volumesnapshot/namespace";
inline constexpr std::string_view kVolumeSnapshotContentNameKey =
    "csi.storage.k8s.io/volumesnapshotcontent/name";
inline constexpr std::string_view kVolumeGroupSnapshotNameKey =
    "csi.storage.k8s.io/volumegroupsnapshot/name";
inline constexpr std::string_view kVolumeGroupSnapshotNamespaceKey =
    "csi.storage.k8s.io/volumegroupsnapshot/namespace";
inline constexpr std::string_view kVolumeGroupSnapshotContentNameKey =
    "csi.storage.k8s.io/volumegroupsnapshotcontent/name";

// "<prefix>-<uid>" (§3.4 create step 6). With uuid_length >= 0 the UID loses
// its dashes and keeps its first uuid_length characters; where upstream
// panics on a UID shorter than that, the whole dashless UID is kept
// (--snapshot-name-uuid-length itself is checked at start-up, §9.9).
std::string SnapshotName(std::string_view prefix, std::string_view uid, int uuid_length);

// Under --node-deployment the sidecar sees only the contents carrying this
// label with its node's name; the controller sets it (§3.1).
inline constexpr std::string_view kManagedByLabel = "snapshot.storage.kubernetes.io/managed-by";

// The Lease replicas of one driver's sidecar compete for (§3.2 step 8):
// "external-snapshotter-leader-<driver with '/' as '-'>", sanitized as a
// whole (kube::SanitizeName).
std::string LeaseNameFor(std::string_view driver);

}  // namespace snapshotter
