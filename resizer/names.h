// The strings of the csi-resizer a drop-in must read and write exactly as
// upstream does (docs/resizer.md §3, §4): annotations, condition types,
// allocatedResourceStatuses values, Event reasons, the queue and the Lease.
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

// Event reasons.
inline constexpr std::string_view kResizingReason = "Resizing";
inline constexpr std::string_view kResizeFailedReason = "VolumeResizeFailed";
inline constexpr std::string_view kResizeSucceededReason = "VolumeResizeSuccessful";
inline constexpr std::string_view kFileSystemResizeRequiredReason = "FileSystemResizeRequired";

// The resize queue: "<driver>-pvc".
std::string QueueNameFor(std::string_view driver);

// "external-resizer-<driver sanitized>" (kube::SanitizeName).
std::string LeaseNameFor(std::string_view driver);

}  // namespace resizer
