#include "snapshot_controller/group_ownership.h"

#include <nlohmann/json.hpp>
#include <string>

#include "kube/api/codec.h"
#include "kube/api/json_patch.h"
#include "kube/client/patch_from_cache.h"
#include "snapshot_controller/group_membership.h"

namespace snapshot_controller {

base::Status EnsureGroupOwnership(ControllerApi& api, const Caches& caches,
                                  const kube::VolumeSnapshot& snapshot) {
  if (!caches.groups || IsGroupMember(snapshot) || !snapshot.status ||
      !snapshot.status->volume_group_snapshot_name ||
      snapshot.status->volume_group_snapshot_name->empty()) {
    return base::Status::Ok();
  }
  const std::string& ns = snapshot.metadata.namespace_;
  const std::string& group_name = *snapshot.status->volume_group_snapshot_name;
  auto group = caches.groups->group_snapshots.Get(ns, group_name);
  if (!group) {
    return base::Error("volumegroupsnapshot.groupsnapshot.storage.k8s.io \"" + group_name +
                       "\" not found");
  }
  const kube::OwnerReference owner = OwnerReferenceTo(*group);
  const std::string& name = snapshot.metadata.name;
  return kube::PatchFromCache(
      snapshot,
      [&](const kube::VolumeSnapshot& copy) {
        kube::JsonPatch patch;
        if (IsGroupMember(copy)) return patch;
        const auto& owners = copy.metadata.owner_references;
        if (owners.empty()) {
          patch.Test("/metadata/ownerReferences", nullptr)
              .Add("/metadata/ownerReferences", nlohmann::json::array({nlohmann::json(owner)}));
        } else {
          patch.Test("/metadata/ownerReferences", nlohmann::json(owners))
              .Add("/metadata/ownerReferences/-", nlohmann::json(owner));
        }
        return patch;
      },
      [&](const std::string& patch) {
        return api.PatchSnapshot(ns, name, kube::PatchType::kJson, patch, /*status=*/false);
      },
      [&] { return api.GetSnapshot(ns, name); });
}

}  // namespace snapshot_controller
