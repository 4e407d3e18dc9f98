#include "snapshotter/create_parameters.h"

#include <string_view>

#include "csi_params/reserved_parameters.h"
#include "snapshotter/names.h"

namespace snapshotter {
namespace {

using Parameters = std::map<std::string, std::string>;

base::Result<Parameters> DriverParameters(const kube::StringMap& class_parameters) {
  auto parameters =
      csi_params::StripReservedParameters(class_parameters, kKnownReservedParameterKeys);
  if (!parameters.ok()) {
    return parameters.error().Wrap("failed to remove CSI Parameters of prefixed keys");
  }
  return parameters;
}

// The --extra-create-metadata keys of one kind.
struct MetadataKeys {
  std::string_view name;
  std::string_view namespace_;
  std::string_view content;
};

base::Result<Parameters> WithMetadata(base::Result<Parameters> parameters, bool extra,
                                      const MetadataKeys& keys, const kube::ObjectReference& ref,
                                      const std::string& content_name) {
  if (!parameters.ok() || !extra) return parameters;
  (*parameters)[std::string(keys.name)] = ref.name;
  (*parameters)[std::string(keys.namespace_)] = ref.namespace_;
  (*parameters)[std::string(keys.content)] = content_name;
  return parameters;
}

}  // namespace

base::Result<Parameters> CreateParameters(const kube::StringMap& class_parameters,
                                          const kube::VolumeSnapshotContent& content,
                                          bool extra_create_metadata) {
  return WithMetadata(
      DriverParameters(class_parameters), extra_create_metadata,
      {kVolumeSnapshotNameKey, kVolumeSnapshotNamespaceKey, kVolumeSnapshotContentNameKey},
      content.spec.volume_snapshot_ref, content.metadata.name);
}

base::Result<Parameters> CreateParameters(const kube::StringMap& class_parameters,
                                          const kube::VolumeGroupSnapshotContent& content,
                                          bool extra_create_metadata) {
  return WithMetadata(DriverParameters(class_parameters), extra_create_metadata,
                      {kVolumeGroupSnapshotNameKey, kVolumeGroupSnapshotNamespaceKey,
                       kVolumeGroupSnapshotContentNameKey},
                      content.spec.volume_group_snapshot_ref, content.metadata.name);
}

}  // namespace snapshotter
