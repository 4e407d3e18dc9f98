#include "snapshot_controller/group_members.h"

#include <memory>

#include "base/strconv.h"
#include "kube/api/json_patch.h"
#include "kube/client/api_error.h"
#include "kube/client/status_patch_from_cache.h"
#include "snapshot_controller/group_member_objects.h"
#include "snapshot_controller/secret_references.h"

namespace snapshot_controller {
namespace {

using kube::VolumeSnapshot;
using kube::VolumeSnapshotContent;

constexpr std::string_view kFailed = "createIndividualSnapshotForGroupSnapshot: ";

// The object as the cache holds it, else as `create` makes it, else - when
// it exists already - as `read` finds it.
template <class T, class Create, class Read>
base::Result<T> CachedOrCreated(std::shared_ptr<const T> cached, const Create& create,
                                const Read& read) {
  if (cached) return *cached;
  base::Result<T> created = create();
  if (!created.ok() && kube::IsConflict(created.error())) return read();
  return created;
}

}  // namespace

base::Status GroupMembers::Ensure(const kube::VolumeGroupSnapshot& group,
                                  const kube::VolumeGroupSnapshotContent& content) {
  if (!content.status || content.status->volume_snapshot_info_list.empty() ||
      !content.status->volume_group_snapshot_handle) {
    return base::Status::Ok();
  }
  auto secret = DeletionSecret(group, content);
  if (!secret.ok()) return secret.error();
  for (const kube::VolumeSnapshotInfo& info : content.status->volume_snapshot_info_list) {
    if (auto made = EnsureMember(group, content, info, *secret); !made.ok()) return made;
  }
  return base::Status::Ok();
}

base::Result<std::optional<kube::SecretReference>> GroupMembers::DeletionSecret(
    const kube::VolumeGroupSnapshot& group, const kube::VolumeGroupSnapshotContent& content) {
  const auto& class_name = group.spec.volume_group_snapshot_class_name;
  if (!class_name) {
    return base::Error(
        "getGroupSnapshotSecret: internal error: cannot find reference to volume group snapshot "
        "class");
  }
  auto group_class = caches_.groups->group_classes.Get("", *class_name);
  if (!group_class) {
    return base::Error("getGroupSnapshotSecret: failed to get volume snapshot class " +
                       *class_name + ": " +
                       base::GoQuote("volumegroupsnapshotclass.groupsnapshot.storage.k8s.io \"" +
                                     *class_name + "\" not found"));
  }
  // Upstream resolves it without the group snapshot: only the content's name.
  auto secret = GroupSnapshotterSecretOf(group_class->parameters, content.metadata.name, nullptr);
  if (!secret.ok()) {
    return base::Error(
        "getGroupSnapshotSecret: failed to get secret reference for group "
        "snapshot content " +
        content.metadata.name + ": " + secret.error().message);
  }
  return secret;
}

base::Status GroupMembers::EnsureMember(const kube::VolumeGroupSnapshot& group,
                                        const kube::VolumeGroupSnapshotContent& group_content,
                                        const kube::VolumeSnapshotInfo& info,
                                        const std::optional<kube::SecretReference>& secret) {
  auto volume = VolumeOfHandle(caches_.volumes, group_content.spec.driver, info.volume_handle);
  const VolumeSnapshotContent wanted_content =
      MemberContentFor(group, group_content, info, volume.get(), secret);
  const VolumeSnapshot wanted_snapshot =
      MemberSnapshotFor(group, group_content, info, volume.get());
  const std::string& ns = wanted_snapshot.metadata.namespace_;
  const std::string& name = wanted_snapshot.metadata.name;

  auto content = CachedOrCreated<VolumeSnapshotContent>(
      caches_.contents.Get("", wanted_content.metadata.name),
      [&] { return api_.CreateContent(wanted_content); },
      [&] { return api_.GetContent(wanted_content.metadata.name); });
  if (!content.ok()) {
    return content.error().Wrap(std::string(kFailed) + "creating volumesnapshotcontent");
  }
  auto snapshot = CachedOrCreated<VolumeSnapshot>(
      caches_.snapshots.Get(ns, name), [&] { return api_.CreateSnapshot(wanted_snapshot); },
      [&] { return api_.GetSnapshot(ns, name); });
  if (!snapshot.ok()) {
    return snapshot.error().Wrap(std::string(kFailed) +
                                 "error creating or fetching volumesnapshot");
  }
  if (snapshot->metadata.uid.empty()) {
    return base::Error(std::string(kFailed) + "created snapshot " + name + " has an empty UID");
  }

  if (content->spec.volume_snapshot_ref.uid != snapshot->metadata.uid) {
    kube::JsonPatch patch;
    patch.Replace("/spec/volumeSnapshotRef/uid", snapshot->metadata.uid.str());
    auto bound = api_.PatchContent(content->metadata.name, kube::PatchType::kJson,
                                   patch.Serialize(), /*status=*/false);
    if (!bound.ok()) {
      return bound.error().Wrap(std::string(kFailed) +
                                "binding volumesnapshotcontent to volumesnapshot");
    }
    content = std::move(bound);
  }

  auto snapshot_bound = kube::PatchStatusFromCache(
      *snapshot,
      [&](const VolumeSnapshot& current) -> std::optional<kube::VolumeSnapshotStatus> {
        kube::VolumeSnapshotStatus status = current.status.value_or(kube::VolumeSnapshotStatus{});
        if (!status.bound_volume_snapshot_content_name) {
          status.bound_volume_snapshot_content_name = content->metadata.name;
        }
        if (!status.volume_group_snapshot_name) {
          status.volume_group_snapshot_name = group.metadata.name;
        }
        return status;
      },
      [&](const std::string& patch) {
        return api_.PatchSnapshot(ns, name, kube::PatchType::kMerge, patch, /*status=*/true);
      },
      [&] { return api_.GetSnapshot(ns, name); });
  if (!snapshot_bound.ok()) {
    return snapshot_bound.error().Wrap(std::string(kFailed) +
                                       "binding volumesnapshot to volumesnapshotcontent");
  }

  const std::string group_handle = *group_content.status->volume_group_snapshot_handle;
  auto content_status = kube::PatchStatusFromCache(
      *content,
      [&](const VolumeSnapshotContent& current) {
        return MemberContentStatus(current.status, info, group_handle);
      },
      [&](const std::string& patch) {
        return api_.PatchContent(content->metadata.name, kube::PatchType::kMerge, patch,
                                 /*status=*/true);
      },
      [&] { return api_.GetContent(content->metadata.name); });
  if (!content_status.ok()) {
    return content_status.error().Wrap(std::string(kFailed) +
                                       "setting snapshotHandle in volumesnapshotcontent");
  }
  return base::Status::Ok();
}

}  // namespace snapshot_controller
