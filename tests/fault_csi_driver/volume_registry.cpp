#include "tests/fault_csi_driver/volume_registry.h"

namespace faultdriver {

void VolumeRegistry::Declare(const std::string& volume_id, int64_t capacity_bytes) {
  std::lock_guard lock(mu_);
  volumes_[volume_id].capacity_bytes = capacity_bytes;
}

std::optional<int64_t> VolumeRegistry::CapacityBytes(std::string_view volume_id) const {
  std::lock_guard lock(mu_);
  auto it = volumes_.find(volume_id);
  if (it == volumes_.end() || it->second.presence != Presence::kExists) return std::nullopt;
  return it->second.capacity_bytes;
}

VolumeRegistry::Volume& VolumeRegistry::NamedByCallLocked(const std::string& volume_id) {
  Volume& volume = volumes_[volume_id];
  if (volume.presence == Presence::kNeverExisted) volume.presence = Presence::kExists;
  return volume;
}

void VolumeRegistry::NotePublishCall(const std::string& volume_id) {
  std::lock_guard lock(mu_);
  ++NamedByCallLocked(volume_id).publish_calls;
}

void VolumeRegistry::NoteUnpublishCall(const std::string& volume_id) {
  std::lock_guard lock(mu_);
  ++NamedByCallLocked(volume_id).unpublish_calls;
}

PublishOutcome VolumeRegistry::Publish(const std::string& volume_id, const std::string& node_id,
                                       bool single_node, const Context& volume_context) {
  std::lock_guard lock(mu_);
  Volume& volume = NamedByCallLocked(volume_id);
  if (volume.presence == Presence::kDeleted) return PublishOutcome::kDeleted;
  if (volume.nodes.count(node_id) != 0) return PublishOutcome::kAlreadyAttached;
  if (single_node && !volume.nodes.empty()) return PublishOutcome::kAttachedElsewhere;
  volume.nodes.insert(node_id);
  volume.volume_context = volume_context;
  ++volume.attaches;
  return PublishOutcome::kAttached;
}

void VolumeRegistry::Unpublish(const std::string& volume_id, const std::string& node_id) {
  std::lock_guard lock(mu_);
  auto it = volumes_.find(volume_id);
  if (it == volumes_.end()) return;
  Volume& volume = it->second;
  if (node_id.empty()) {
    volume.detaches += static_cast<int64_t>(volume.nodes.size());
    volume.nodes.clear();
  } else {
    volume.detaches += static_cast<int64_t>(volume.nodes.erase(node_id));
  }
}

void VolumeRegistry::DetachBehindBack(const std::string& volume_id) {
  std::lock_guard lock(mu_);
  auto it = volumes_.find(volume_id);
  if (it == volumes_.end() || it->second.nodes.empty()) return;
  it->second.nodes.clear();
  ++it->second.detached_behind_back;
}

std::optional<VolumeRegistry::ListPage> VolumeRegistry::List(
    size_t max_entries, std::string_view starting_token) const {
  std::lock_guard lock(mu_);
  // Volumes are never forgotten, deleted ones neither, so every token handed
  // out stays valid.
  if (!starting_token.empty() && volumes_.find(starting_token) == volumes_.end()) {
    return std::nullopt;
  }
  ListPage page;
  for (auto it = volumes_.lower_bound(starting_token); it != volumes_.end(); ++it) {
    const Volume& volume = it->second;
    if (volume.presence != Presence::kExists) continue;
    if (max_entries != 0 && page.entries.size() == max_entries) {
      page.next_token = it->first;
      break;
    }
    page.entries.push_back({it->first,
                            volume.capacity_bytes,
                            volume.volume_context,
                            {volume.nodes.begin(), volume.nodes.end()}});
  }
  return page;
}

nlohmann::json VolumeRegistry::ToJson() const {
  std::lock_guard lock(mu_);
  nlohmann::json volumes = nlohmann::json::object();
  nlohmann::json attachments = nlohmann::json::object();
  nlohmann::json existing = nlohmann::json::array();
  for (const auto& [id, volume] : volumes_) {
    const bool exists = volume.presence == Presence::kExists;
    volumes[id] = {{"capacity_bytes", volume.capacity_bytes},
                   {"exists", exists},
                   {"publish_calls", volume.publish_calls},
                   {"unpublish_calls", volume.unpublish_calls},
                   {"attaches", volume.attaches},
                   {"detaches", volume.detaches},
                   {"detached_behind_back", volume.detached_behind_back},
                   {"delete_calls", volume.delete_calls},
                   {"delete_ok", volume.delete_ok},
                   {"delete_secrets", volume.delete_secret_keys}};
    if (!volume.nodes.empty()) attachments[id] = volume.nodes;
    if (exists && volume.made_by_create) existing.push_back(id);
  }
  nlohmann::json by_name = nlohmann::json::object();
  for (const auto& [name, named] : named_) by_name[name] = NamedToJsonLocked(name, named);
  return {{"volumes", volumes},
          {"attachments", attachments},
          {"volumes_by_name", by_name},
          {"existing_volumes", existing}};
}

}  // namespace faultdriver
