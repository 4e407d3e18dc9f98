// The finalizers the snapshot-controller puts on VolumeSnapshots and
// PersistentVolumeClaims and removes again (docs/snapshots.md §4.3 steps 1
// and 4, §4.5 step 6, §4.7), exactly as
// upstream names them. The names it shares with the sidecar (the content's
// finalizer and annotations) are in snapshot/names.h.
#pragma once

#include <array>
#include <string_view>

namespace snapshot_controller {

// On every VolumeSnapshot: it may be the source of a claim being restored.
inline constexpr std::string_view kSnapshotAsSourceFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection";
// On a bound VolumeSnapshot whose content's policy is Delete.
inline constexpr std::string_view kSnapshotBoundFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection";
// On a member of a group snapshot.
inline constexpr std::string_view kSnapshotInGroupFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshot-in-group-protection";

inline constexpr std::array<std::string_view, 3> kSnapshotFinalizers = {
    kSnapshotAsSourceFinalizer, kSnapshotBoundFinalizer, kSnapshotInGroupFinalizer};

// On a bound VolumeGroupSnapshot (§4.7).
inline constexpr std::string_view kGroupSnapshotBoundFinalizer =
    "groupsnapshot.storage.kubernetes.io/volumegroupsnapshot-bound-protection";

// On the source claim of a snapshot being taken.
inline constexpr std::string_view kClaimAsSourceFinalizer =
    "snapshot.storage.kubernetes.io/pvc-as-source-protection";

}  // namespace snapshot_controller
