// The finalizers the snapshot-controller keeps on VolumeSnapshots
// (docs/snapshots.md §4.3 step 4, §4.5 step 6).
#pragma once

#include <string_view>

namespace snapshot_controller {

// Keeps a VolumeSnapshot while a claim is being restored from it; always
// added to a snapshot not being deleted.
inline constexpr std::string_view kSnapshotAsSourceFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection";
// Keeps a bound VolumeSnapshot until its content (policy Delete) is gone.
inline constexpr std::string_view kSnapshotBoundFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection";
// Keeps a group member while its VolumeGroupSnapshot exists.
inline constexpr std::string_view kSnapshotInGroupFinalizer =
    "snapshot.storage.kubernetes.io/volumesnapshot-in-group-protection";

}  // namespace snapshot_controller
