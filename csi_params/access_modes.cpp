#include "csi_params/access_modes.h"

#include <algorithm>
#include <string_view>

namespace csi_params {
namespace {

constexpr std::string_view kReadWriteOnce = "ReadWriteOnce";
constexpr std::string_view kReadOnlyMany = "ReadOnlyMany";
constexpr std::string_view kReadWriteMany = "ReadWriteMany";
constexpr std::string_view kReadWriteOncePod = "ReadWriteOncePod";

// Go's "%+v" of a []PersistentVolumeAccessMode: "[ReadWriteOnce ReadOnlyMany]".
std::string GoListString(const std::vector<std::string>& modes) {
  std::string out = "[";
  for (size_t i = 0; i < modes.size(); ++i) {
    if (i > 0) out += ' ';
    out += modes[i];
  }
  return out + "]";
}

}  // namespace

base::Result<AccessMode> ToCsiAccessMode(const std::vector<std::string>& pv_access_modes,
                                         bool single_node_multi_writer) {
  auto has = [&](std::string_view mode) {
    return std::find(pv_access_modes.begin(), pv_access_modes.end(), mode) != pv_access_modes.end();
  };
  if (has(kReadWriteOncePod)) {
    // Upstream counts list entries, so even a repeated RWOP is rejected.
    if (pv_access_modes.size() > 1) {
      return base::Error(
          "Kubernetes does not support use of ReadWriteOncePod with other access modes on the "
          "same PersistentVolume");
    }
    return single_node_multi_writer ? AccessMode::kSingleNodeSingleWriter
                                    : AccessMode::kSingleNodeWriter;
  }
  if (has(kReadWriteMany)) return AccessMode::kMultiNodeMultiWriter;
  if (has(kReadOnlyMany) && has(kReadWriteOnce)) {
    return base::Error(
        "CSI does not support ReadOnlyMany and ReadWriteOnce on the same PersistentVolume");
  }
  if (has(kReadOnlyMany)) return AccessMode::kMultiNodeReaderOnly;
  if (has(kReadWriteOnce)) {
    return single_node_multi_writer ? AccessMode::kSingleNodeMultiWriter
                                    : AccessMode::kSingleNodeWriter;
  }
  return base::Error("unsupported AccessMode combination: " + GoListString(pv_access_modes));
}

}  // namespace csi_params
