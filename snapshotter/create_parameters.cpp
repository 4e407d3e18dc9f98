#include "snapshotter/create_parameters.h"

#include <algorithm>

#include "snapshotter/names.h"

namespace snapshotter {

base::Result<std::map<std::string, std::string>> CreateParameters(
    const kube::StringMap& class_parameters, const kube::VolumeSnapshotContent& content,
    bool extra_create_metadata) {
  std::map<std::string, std::string> parameters;
  for (const auto& [key, value] : class_parameters) {
    if (!key.starts_with(kReservedParameterPrefix)) {
      parameters.emplace(key, value);
      continue;
    }
    if (std::ranges::find(kKnownReservedParameterKeys, key) == kKnownReservedParameterKeys.end()) {
      return base::Error(
          "failed to remove CSI Parameters of prefixed keys: found unknown parameter key \"" + key +
          "\" with reserved namespace " + std::string(kReservedParameterPrefix));
    }
  }
  if (extra_create_metadata) {
    parameters[std::string(kVolumeSnapshotNameKey)] = content.spec.volume_snapshot_ref.name;
    parameters[std::string(kVolumeSnapshotNamespaceKey)] =
        content.spec.volume_snapshot_ref.namespace_;
    parameters[std::string(kVolumeSnapshotContentNameKey)] = content.metadata.name;
  }
  return parameters;
}

}  // namespace snapshotter
