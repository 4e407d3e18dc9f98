#include "snapshot_controller/group_content_creator.h"

#include <variant>
#include <vector>

#include "base/strconv.h"
#include "csi_params/volumes.h"
#include "kube/api/core/v1/event.h"
#include "kube/client/api_error.h"
#include "snapshot/names.h"
#include "snapshot_controller/default_snapshot_class.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/group_volumes.h"
#include "snapshot_controller/secret_references.h"

namespace snapshot_controller {
namespace {

using kube::VolumeGroupSnapshot;
using kube::VolumeGroupSnapshotContent;

// Upstream's newControllerUpdateError.
base::Error UpdateFailed(const VolumeGroupSnapshot& group, const std::string& message) {
  return base::Error("snapshot controller failed to update " + GroupKey(group) +
                     " on API server: " + message);
}

}  // namespace

std::string DynamicGroupContentNameFor(const VolumeGroupSnapshot& group) {
  return "groupsnapcontent-" + group.metadata.uid.str();
}

base::Result<std::string> GroupContentCreator::DefaultClassOf(const VolumeGroupSnapshot& group) {
  auto volumes = GroupVolumesOf(group, caches_, api_);
  if (!volumes.ok()) return volumes.error();
  // Upstream takes the first volume's driver.
  const auto* csi = csi_params::CsiSourceOf(volumes->front());
  if (csi == nullptr) {
    return base::Error("snapshotting non-CSI volumes is not supported, group snapshot:" +
                       GroupKey(group));
  }
  auto found = DefaultGroupSnapshotClassFor(caches_.groups->group_classes.List(), csi->driver);
  if (!found.ok()) return found.error();
  return (*found)->metadata.name;
}

base::Result<VolumeGroupSnapshotContent> GroupContentCreator::Create(
    const VolumeGroupSnapshot& group) {
  auto content = ContentToCreate(group);
  if (!content.ok()) return content.error();
  auto created = api_.CreateGroupContent(*content);
  // A content left by an earlier sync whose answer was lost is the one we want.
  if (!created.ok() && !kube::IsConflict(created.error())) {
    events_.Record(kube::ReferenceTo(group), kube::kEventTypeWarning,
                   "CreateGroupSnapshotContentFailed",
                   "Error creating volume group snapshot content object for group snapshot " +
                       GroupKey(group) + ": " + created.error().message + ".");
    return UpdateFailed(group, created.error().message);
  }
  events_.Record(
      kube::ReferenceTo(group), kube::kEventTypeNormal, "CreatingGroupSnapshot",
      "Waiting for a group snapshot " + GroupKey(group) + " to be created by the CSI driver.");
  return created.ok() ? std::move(*created) : std::move(*content);
}

base::Result<VolumeGroupSnapshotContent> GroupContentCreator::ContentToCreate(
    const VolumeGroupSnapshot& group) {
  auto input_error = [&](const base::Error& error) {
    return base::Error("failed to get input parameters to create group snapshot " +
                       group.metadata.name + ": " + base::GoQuote(error.message));
  };
  const auto& class_name = group.spec.volume_group_snapshot_class_name;
  if (!class_name) {
    return input_error(base::Error("failed to take group snapshot " + group.metadata.name +
                                   " without a group snapshot class"));
  }
  auto group_class = caches_.groups->group_classes.Get("", *class_name);
  if (!group_class) {
    return input_error(base::Error("volumegroupsnapshotclass.groupsnapshot.storage.k8s.io \"" +
                                   *class_name + "\" not found"));
  }
  auto volumes = GroupVolumesOf(group, caches_, api_);
  if (!volumes.ok()) return input_error(volumes.error());
  const std::string name = DynamicGroupContentNameFor(group);
  auto secret = GroupSnapshotterSecretOf(group_class->parameters, name, &group);
  if (!secret.ok()) return input_error(secret.error());

  VolumeGroupSnapshotContent content;
  for (const kube::PersistentVolume& volume : *volumes) {
    const auto* csi = csi_params::CsiSourceOf(volume);
    if (csi == nullptr) {
      events_.Record(kube::ReferenceTo(group), kube::kEventTypeWarning,
                     "CreateGroupSnapshotContentFailed",
                     "Cannot snapshot a non-CSI volume: " + volume.metadata.name);
      return base::Error("cannot snapshot a non-CSI volume for group snapshot " + GroupKey(group) +
                         ": " + volume.metadata.name);
    }
    if (csi->driver != group_class->driver) {
      const std::string message =
          "Volume CSI driver (" + csi->driver.str() + ") mismatch with VolumeGroupSnapshotClass (" +
          group_class->driver + ") " + GroupKey(group) + ": " + volume.metadata.name;
      events_.Record(kube::ReferenceTo(group), kube::kEventTypeWarning,
                     "CreateGroupSnapshotContentFailed", message);
      return UpdateFailed(group, message);
    }
    content.spec.source.volume_handles.push_back(csi->volume_handle);
  }
  content.metadata.name = name;
  content.spec.volume_group_snapshot_ref = kube::ReferenceTo(group);
  content.spec.volume_group_snapshot_class_name = group_class->metadata.name;
  content.spec.deletion_policy = group_class->deletion_policy;
  content.spec.driver = group_class->driver;
  if (secret->has_value()) {
    content.metadata.annotations[std::string(snapshot::kGroupDeletionSecretNameAnnotation)] =
        (*secret)->name;
    content.metadata.annotations[std::string(snapshot::kGroupDeletionSecretNamespaceAnnotation)] =
        (*secret)->namespace_;
  }
  return content;
}

}  // namespace snapshot_controller
