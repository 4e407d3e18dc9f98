// The strings of the csi-snapshotter sidecar alone, which a drop-in must use
// exactly as upstream does (docs/snapshots.md §3.2, §3.4): the extra create
// metadata keys, the name of the snapshot
// CreateSnapshot is asked for, and the Lease. The names the sidecar shares
// with the snapshot-controller are in snapshot/names.h.
#pragma once

#include <string>
#include <string_view>

namespace snapshotter {

// Class parameter keys the sidecar adds with --extra-create-metadata (§3.4
// create step 5), under the reserved prefix (csi_params/reserved_parameters.h).

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

// The Lease replicas of one driver's sidecar compete for (§3.2 step 8):
// "external-snapshotter-leader-<driver with '/' as '-'>", sanitized as a
// whole (kube::SanitizeName).
std::string LeaseNameFor(std::string_view driver);

}  // namespace snapshotter
