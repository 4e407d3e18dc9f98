#include "snapshot_controller/content_creation.h"

#include "kube/api/core/v1/event.h"
#include "kube/client/api_error.h"
#include "snapshot_controller/dynamic_content.h"
#include "snapshot_controller/managed_by_node.h"
#include "snapshot_controller/source_volume.h"

namespace snapshot_controller {
namespace {

std::string KeyOf(const kube::VolumeSnapshot& snapshot) {
  return snapshot.metadata.namespace_ + "/" + snapshot.metadata.name;
}

}  // namespace

base::Error SnapshotClassNotFound(const std::string& name) {
  return base::Error("volumesnapshotclass.snapshot.storage.k8s.io \"" + name + "\" not found");
}

base::Result<kube::VolumeSnapshotContent> ContentCreation::Create(
    const kube::VolumeSnapshot& snapshot) {
  if (auto protected_claim = claim_finalizer_.Add(snapshot); !protected_claim.ok()) {
    return protected_claim.error();
  }
  auto content = ContentFor(snapshot);
  if (!content.ok()) return content.error();

  auto created = api_.CreateContent(*content);
  // A content left by an earlier sync whose answer was lost is the one we want.
  if (!created.ok() && !kube::IsConflict(created.error())) {
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeWarning,
                   "CreateSnapshotContentFailed",
                   "Error creating volume snapshot content object for snapshot " + KeyOf(snapshot) +
                       ": " + created.error().message + ".");
    return created.error().Wrap("snapshot controller failed to update " + KeyOf(snapshot) +
                                " on API server");
  }
  events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeNormal, "CreatingSnapshot",
                 "Waiting for a snapshot " + KeyOf(snapshot) + " to be created by the CSI driver.");
  return created.ok() ? std::move(*created) : std::move(*content);
}

base::Result<kube::VolumeSnapshotContent> ContentCreation::ContentFor(
    const kube::VolumeSnapshot& snapshot) {
  const auto& class_name = snapshot.spec.volume_snapshot_class_name;
  if (!class_name) {
    return CreateInputError(snapshot,
                            base::Error("failed to take snapshot " + snapshot.metadata.name +
                                        " without a snapshot class"));
  }
  auto snapshot_class = caches_.classes.Get("", *class_name);
  if (!snapshot_class) {
    return CreateInputError(snapshot, SnapshotClassNotFound(*class_name));
  }
  auto volume = SourceVolumeOf(snapshot, caches_, api_);
  if (!volume.ok()) return CreateInputError(snapshot, volume.error());

  DynamicContentOptions options{.prevent_volume_mode_conversion =
                                    options_.prevent_volume_mode_conversion};
  if (options_.enable_distributed_snapshotting && caches_.nodes) {
    options.managed_by_node = ManagedByNode(*volume, *caches_.nodes);
  }
  return DynamicContentFor(snapshot, *snapshot_class, *volume, options);
}

}  // namespace snapshot_controller
