#include "snapshot_controller/dynamic_content.h"

#include "base/strconv.h"
#include "csi_params/volumes.h"
#include "snapshot/names.h"
#include "snapshot_controller/secret_references.h"

namespace snapshot_controller {

std::string DynamicContentNameFor(const kube::VolumeSnapshot& snapshot) {
  return "snapcontent-" + snapshot.metadata.uid.str();
}

base::Error CreateInputError(const kube::VolumeSnapshot& snapshot, const base::Error& error) {
  return base::Error("failed to get input parameters to create snapshot " + snapshot.metadata.name +
                     ": " + base::GoQuote(error.message));
}

base::Result<kube::VolumeSnapshotContent> DynamicContentFor(
    const kube::VolumeSnapshot& snapshot, const kube::VolumeSnapshotClass& snapshot_class,
    const kube::PersistentVolume& volume, const DynamicContentOptions& options) {
  const std::string name = DynamicContentNameFor(snapshot);
  // Upstream resolves the Secret before it looks at the PV's source.
  auto secret = SnapshotterSecretOf(snapshot_class.parameters, name, snapshot);
  if (!secret.ok()) return CreateInputError(snapshot, secret.error());
  const auto* csi = csi_params::CsiSourceOf(volume);
  if (csi == nullptr) {
    return base::Error("cannot find CSI PersistentVolumeSource for volume " + volume.metadata.name);
  }

  kube::VolumeSnapshotContent content;
  content.metadata.name = name;
  // In the POST rather than a patch after it, which would race the
  // sidecar's first writes to the content (docs/snapshots.md §9.4).
  content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  content.spec.volume_snapshot_ref = kube::ReferenceTo(snapshot);
  content.spec.source.volume_handle = csi->volume_handle;
  content.spec.volume_snapshot_class_name = snapshot_class.metadata.name;
  content.spec.deletion_policy = snapshot_class.deletion_policy;
  content.spec.driver = snapshot_class.driver;
  if (!options.managed_by_node.empty()) {
    content.metadata.labels[std::string(snapshot::kManagedByLabel)] = options.managed_by_node;
  }
  // An empty volumeMode is a PV without one (the API server defaults it).
  if (options.prevent_volume_mode_conversion && !volume.spec.volume_mode.empty()) {
    content.spec.source_volume_mode = volume.spec.volume_mode;
  }
  if (secret->has_value()) {
    content.metadata.annotations[std::string(snapshot::kDeletionSecretNameAnnotation)] =
        (*secret)->name;
    content.metadata.annotations[std::string(snapshot::kDeletionSecretNamespaceAnnotation)] =
        (*secret)->namespace_;
  }
  return content;
}

}  // namespace snapshot_controller
