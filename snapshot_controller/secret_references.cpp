#include "snapshot_controller/secret_references.h"

#include "snapshot/class_secrets.h"
#include "snapshot/names.h"

namespace snapshot_controller {
namespace {

constexpr snapshot::ClassSecretKeys kSnapshotterSecretKeys = {
    {snapshot::kSnapshotterSecretNameKey, snapshot::kSnapshotterSecretNamespaceKey, "Snapshotter"}};
constexpr snapshot::ClassSecretKeys kGroupSnapshotterSecretKeys = {
    {snapshot::kGroupSnapshotterSecretNameKey, snapshot::kGroupSnapshotterSecretNamespaceKey,
     "GroupSnapshotter"},
    "volumegroupsnapshot"};

}  // namespace

base::Result<std::optional<kube::SecretReference>> SnapshotterSecretOf(
    const kube::StringMap& parameters, std::string_view content_name,
    const kube::VolumeSnapshot& snapshot) {
  return snapshot::ClassSecretOf(kSnapshotterSecretKeys, parameters, content_name,
                                 &snapshot.metadata);
}

base::Result<std::optional<kube::SecretReference>> GroupSnapshotterSecretOf(
    const kube::StringMap& parameters, std::string_view content_name,
    const kube::VolumeGroupSnapshot* group) {
  return snapshot::ClassSecretOf(kGroupSnapshotterSecretKeys, parameters, content_name,
                                 group ? &group->metadata : nullptr);
}

}  // namespace snapshot_controller
