// The strings a drop-in attacher must write exactly as upstream does
// (docs/attacher.md §3, §5.2).
#pragma once

#include <string>
#include <string_view>

namespace attacher {

inline constexpr std::string_view kNodeIdAnnotation = "csi.alpha.kubernetes.io/node-id";
inline constexpr std::string_view kMigratedToAnnotation = "pv.kubernetes.io/migrated-to";

// "external-attacher/<driver sanitized by kube::SanitizeName>", on both
// VolumeAttachments and PVs.
std::string FinalizerFor(std::string_view driver);

// "external-attacher-leader-<driver>", sanitized as a whole.
std::string LeaseNameFor(std::string_view driver);

}  // namespace attacher
