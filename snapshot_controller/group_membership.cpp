#include "snapshot_controller/group_membership.h"

#include <algorithm>

namespace snapshot_controller {

std::optional<std::string> GroupOf(const kube::VolumeSnapshot& snapshot) {
  for (const kube::OwnerReference& owner : snapshot.metadata.owner_references) {
    if (owner.kind == kube::VolumeGroupSnapshot::kFacts.kind &&
        owner.api_version == kube::VolumeGroupSnapshot::kFacts.api_version) {
      return owner.name;
    }
  }
  return std::nullopt;
}

kube::OwnerReference OwnerReferenceTo(const kube::VolumeGroupSnapshot& group) {
  return {.api_version = std::string(kube::VolumeGroupSnapshot::kFacts.api_version),
          .kind = std::string(kube::VolumeGroupSnapshot::kFacts.kind),
          .name = group.metadata.name,
          .uid = group.metadata.uid};
}

std::vector<std::shared_ptr<const kube::VolumeSnapshot>> MembersOf(
    const kube::VolumeGroupSnapshot& group, const kube::Store<kube::VolumeSnapshot>& snapshots) {
  std::vector<std::shared_ptr<const kube::VolumeSnapshot>> members;
  for (auto& snapshot : snapshots.List()) {
    if (snapshot->metadata.namespace_ == group.metadata.namespace_ &&
        GroupOf(*snapshot) == group.metadata.name) {
      members.push_back(std::move(snapshot));
    }
  }
  std::sort(members.begin(), members.end(),
            [](const auto& a, const auto& b) { return a->metadata.name < b->metadata.name; });
  return members;
}

namespace {

const std::optional<std::string>& GroupNameOf(const kube::VolumeSnapshot& snapshot) {
  static const std::optional<std::string> kNone;
  return snapshot.status ? snapshot.status->volume_group_snapshot_name : kNone;
}

}  // namespace

std::string GroupSnapshotNameOf(const kube::VolumeSnapshotContent& content, const Caches& caches) {
  if (!caches.groups || !content.status || !content.status->volume_group_snapshot_handle) {
    return "";
  }
  for (const auto& group_content : caches.groups->group_contents.List()) {
    if (group_content->status && group_content->status->volume_group_snapshot_handle ==
                                     content.status->volume_group_snapshot_handle) {
      return group_content->spec.volume_group_snapshot_ref.name;
    }
  }
  return "";
}

bool HeldByGroup(const kube::VolumeSnapshot& snapshot, const Caches& caches) {
  const auto& group = GroupNameOf(snapshot);
  if (!group) return false;
  return !caches.groups ||
         caches.groups->group_snapshots.Get(snapshot.metadata.namespace_, *group) != nullptr;
}

bool GroupIsGone(const kube::VolumeSnapshot& snapshot, const Caches& caches) {
  return GroupNameOf(snapshot) && caches.groups && !HeldByGroup(snapshot, caches);
}

}  // namespace snapshot_controller
