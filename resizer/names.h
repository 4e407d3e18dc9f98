// The strings of the csi-resizer a drop-in must read and write exactly as
// upstream does (docs/resizer.md §3, §4, §5): annotations, condition types,
// allocatedResourceStatuses and modifyVolumeStatus values, Event reasons,
// mutable parameter keys, the queue and the Lease.
#pragma once

#include <string>
#include <string_view>

namespace resizer {

// Claims.
inline constexpr std::string_view kStorageResizerAnnotation =
    "volume.kubernetes.io/storage-resizer";
inline constexpr std::string_view kNodeExpansionNotRequiredAnnotation =
    "volume.kubernetes.io/node-expansion-not-required";
// PVs: the claim's capacity before an expansion that needs the node.
inline constexpr std::string_view kPreResizeCapacityAnnotation =
    "volume.alpha.kubernetes.io/pre-resize-capacity";
// PVs: the Secret of ControllerModifyVolume, written at provisioning from the
// StorageClass's csi.storage.k8s.io/controller-modify-secret-* parameters.
inline constexpr std::string_view kModifySecretNameAnnotation =
    "volume.kubernetes.io/controller-modify-secret-name";
inline constexpr std::string_view kModifySecretNamespaceAnnotation =
    "volume.kubernetes.io/controller-modify-secret-namespace";

// Claim condition types; the first four are the resize conditions.
inline constexpr std::string_view kResizingCondition = "Resizing";
inline constexpr std::string_view kFileSystemResizePendingCondition = "FileSystemResizePending";
inline constexpr std::string_view kControllerResizeErrorCondition = "ControllerResizeError";
inline constexpr std::string_view kNodeResizeErrorCondition = "NodeResizeError";
bool IsResizeCondition(std::string_view type);

// status.allocatedResourceStatuses[storage].
inline constexpr std::string_view kControllerResizeInProgress = "ControllerResizeInProgress";
inline constexpr std::string_view kControllerResizeInfeasible = "ControllerResizeInfeasible";
inline constexpr std::string_view kNodeResizePending = "NodeResizePending";
inline constexpr std::string_view kNodeResizeInProgress = "NodeResizeInProgress";
inline constexpr std::string_view kNodeResizeInfeasible = "NodeResizeInfeasible";

// The modify controller's claim condition types.
inline constexpr std::string_view kModifyingVolumeCondition = "ModifyingVolume";
inline constexpr std::string_view kModifyVolumeErrorCondition = "ModifyVolumeError";

// status.modifyVolumeStatus.status.
inline constexpr std::string_view kModifyPending = "Pending";
inline constexpr std::string_view kModifyInProgress = "InProgress";
inline constexpr std::string_view kModifyInfeasible = "Infeasible";

// --extra-modify-metadata: the keys added to ControllerModifyVolume's
// mutable_parameters.
inline constexpr std::string_view kPvcNameParameter = "csi.storage.k8s.io/pvc/name";
inline constexpr std::string_view kPvcNamespaceParameter = "csi.storage.k8s.io/pvc/namespace";
inline constexpr std::string_view kPvNameParameter = "csi.storage.k8s.io/pv/name";

// Event reasons.
inline constexpr std::string_view kResizingReason = "Resizing";
inline constexpr std::string_view kResizeFailedReason = "VolumeResizeFailed";
inline constexpr std::string_view kResizeSucceededReason = "VolumeResizeSuccessful";
inline constexpr std::string_view kFileSystemResizeRequiredReason = "FileSystemResizeRequired";
inline constexpr std::string_view kModifyingReason = "VolumeModify";
inline constexpr std::string_view kModifySucceededReason = "VolumeModifySuccessful";
inline constexpr std::string_view kModifyFailedReason = "VolumeModifyFailed";
// Upstream's constant is VolumeModifyCancelled; the reason it writes has one l.
inline constexpr std::string_view kModifyCanceledReason = "VolumeModifyCanceled";

// The resize queue: "<driver>-pvc".
std::string QueueNameFor(std::string_view driver);

// "external-resizer-<driver sanitized>" (kube::SanitizeName).
std::string LeaseNameFor(std::string_view driver);

}  // namespace resizer
