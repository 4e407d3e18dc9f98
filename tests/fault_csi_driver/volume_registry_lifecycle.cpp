// VolumeRegistry's CreateVolume and DeleteVolume side (the class contract is
// in the header).
#include <string_view>

#include "tests/fault_csi_driver/volume_registry.h"

namespace faultdriver {
namespace {

// Unlike the provisioner's names ("pvc-<uid>"), so a caller that sends the
// name where the ID belongs is caught.
constexpr std::string_view kCreatedIdPrefix = "vol-";

}  // namespace

std::string VolumeRegistry::VolumeIdFor(const std::string& name) {
  return std::string(kCreatedIdPrefix) + name;
}

void VolumeRegistry::NoteCreateCall(const std::string& name) {
  std::lock_guard lock(mu_);
  ++named_[name].create_calls;
}

void VolumeRegistry::NoteCreateOk(const std::string& name) {
  std::lock_guard lock(mu_);
  ++named_[name].create_ok;
}

void VolumeRegistry::NoteDeleteCall(const std::string& volume_id,
                                    const std::vector<std::string>& secret_keys) {
  std::lock_guard lock(mu_);
  auto [it, unknown] = volumes_.try_emplace(volume_id);
  // Counting the call must not make the ID a volume.
  if (unknown) it->second.presence = Presence::kNeverExisted;
  ++it->second.delete_calls;
  it->second.delete_secret_keys = secret_keys;
}

void VolumeRegistry::NoteDeleteOk(const std::string& volume_id) {
  std::lock_guard lock(mu_);
  ++volumes_[volume_id].delete_ok;
}

VolumeRegistry::CreateResult VolumeRegistry::Create(const NewVolume& request) {
  std::lock_guard lock(mu_);
  const std::string volume_id = VolumeIdFor(request.name);
  auto [it, unknown] = volumes_.try_emplace(volume_id);
  Volume& volume = it->second;
  if (!unknown && volume.presence == Presence::kExists) {
    if (!volume.made_by_create) return {VolumeCreateOutcome::kIdTaken, volume_id, 0};
    return {VolumeCreateOutcome::kExisting, volume_id, volume.capacity_bytes};
  }
  volume.presence = Presence::kExists;
  volume.made_by_create = true;
  volume.capacity_bytes = request.capacity_bytes;
  volume.volume_context = request.volume_context;
  named_[request.name].created = request;
  return {VolumeCreateOutcome::kCreated, volume_id, volume.capacity_bytes};
}

VolumeDeleteOutcome VolumeRegistry::Delete(const std::string& volume_id) {
  std::lock_guard lock(mu_);
  auto it = volumes_.find(volume_id);
  if (it == volumes_.end() || it->second.presence != Presence::kExists) {
    return VolumeDeleteOutcome::kUnknown;
  }
  if (!it->second.nodes.empty()) return VolumeDeleteOutcome::kPublished;
  it->second.presence = Presence::kDeleted;
  return VolumeDeleteOutcome::kDeleted;
}

std::optional<std::string> VolumeRegistry::CreatedName(const std::string& volume_id) const {
  std::lock_guard lock(mu_);
  auto it = volumes_.find(volume_id);
  if (it == volumes_.end() || !it->second.made_by_create) return std::nullopt;
  return volume_id.substr(kCreatedIdPrefix.size());
}

nlohmann::json VolumeRegistry::NamedToJsonLocked(const std::string& name,
                                                 const Named& named) const {
  nlohmann::json entry = {{"volume_id", ""},
                          {"exists", false},
                          {"create_calls", named.create_calls},
                          {"create_ok", named.create_ok}};
  if (!named.created) return entry;
  const NewVolume& created = *named.created;
  const std::string volume_id = VolumeIdFor(name);
  entry["volume_id"] = volume_id;
  entry["exists"] = volumes_.at(volume_id).presence == Presence::kExists;
  entry["capacity_bytes"] = created.capacity_bytes;
  entry["parameters"] = created.parameters;
  entry["mutable_parameters"] = created.mutable_parameters;
  entry["secrets"] = created.secret_keys;
  entry["volume_content_source"] = created.content_source;
  entry["accessibility_requirements"] = created.accessibility_requirements;
  entry["created_after_caller_gave_up"] = created.caller_gave_up;
  return entry;
}

}  // namespace faultdriver
