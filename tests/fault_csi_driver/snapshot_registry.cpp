#include "tests/fault_csi_driver/snapshot_registry.h"

#include <google/protobuf/util/time_util.h>

#include <utility>

#include "base/strconv.h"

namespace faultdriver {

void SnapshotRegistry::Readiness::CountAnswer() {
  ++answers;
  if (ready_after && answers >= *ready_after) ready = true;
}

void SnapshotRegistry::Cut::Renew(uint64_t new_number, std::string new_id,
                                  const Parameters& new_parameters,
                                  const std::vector<std::string>& new_secret_keys,
                                  std::optional<int64_t> ready_after) {
  number = new_number;
  id = std::move(new_id);
  creation_time = google::protobuf::util::TimeUtil::GetCurrentTime();
  parameters = new_parameters;
  secret_keys = new_secret_keys;
  readiness = {.ready_after = ready_after};
  exists = true;
}

nlohmann::json SnapshotRegistry::Cut::ToJson(bool ready) const {
  nlohmann::json entry = {{"exists", exists},
                          {"ready", ready},
                          {"answers", readiness.answers},
                          {"create_calls", create_calls},
                          {"delete_calls", delete_calls}};
  if (number != 0) {
    entry["creation_time"] = google::protobuf::util::TimeUtil::ToString(creation_time);
    entry["parameters"] = parameters;
    entry["secrets"] = secret_keys;
  }
  return entry;
}

void SnapshotRegistry::NoteCreateCall(const std::string& name) {
  std::lock_guard lock(mu_);
  ++snapshots_[name].create_calls;
}

void SnapshotRegistry::NoteDeleteCall(const std::string& snapshot_id) {
  std::lock_guard lock(mu_);
  CountCallLocked(snapshots_, names_by_id_, snapshot_id, &Snapshot::delete_calls);
}

void SnapshotRegistry::NoteListCall(const std::string& snapshot_id) {
  std::lock_guard lock(mu_);
  CountCallLocked(snapshots_, names_by_id_, snapshot_id, &Snapshot::list_calls);
}

std::optional<SnapshotRegistry::Identity> SnapshotRegistry::Identify(
    const std::string& snapshot_id) const {
  std::lock_guard lock(mu_);
  const Snapshot* snapshot = FindLocked(snapshots_, names_by_id_, snapshot_id);
  if (snapshot == nullptr) return std::nullopt;
  return Identity{names_by_id_.at(snapshot_id), snapshot->source_volume_id};
}

SnapshotRegistry::CreateResult SnapshotRegistry::Create(const NewSnapshot& request) {
  std::lock_guard lock(mu_);
  Snapshot& snapshot = snapshots_[request.name];
  if (snapshot.exists) {
    // A group's member is not a snapshot the caller could have created.
    if (snapshot.source_volume_id != request.source_volume_id ||
        !snapshot.group_snapshot_id.empty()) {
      return {CreateOutcome::kOtherSource, ReportLocked(request.name, snapshot)};
    }
    return {CreateOutcome::kExisting, AnswerLocked(request.name, snapshot)};
  }
  CutLocked(request.name, snapshot, request);
  snapshot.group_snapshot_id.clear();
  return {CreateOutcome::kCreated, AnswerLocked(request.name, snapshot)};
}

void SnapshotRegistry::CutLocked(const std::string& name, Snapshot& snapshot,
                                 const NewSnapshot& request) {
  const uint64_t number = ++created_;
  snapshot.Renew(number, "handle-" + std::to_string(number), request.parameters,
                 request.secret_keys, request.ready_after);
  snapshot.source_volume_id = request.source_volume_id;
  snapshot.size_bytes = request.size_bytes;
  names_by_id_[snapshot.id] = name;
  names_by_number_[number] = name;
}

DeleteOutcome SnapshotRegistry::Delete(const std::string& snapshot_id) {
  std::lock_guard lock(mu_);
  Snapshot* snapshot = FindLocked(snapshots_, names_by_id_, snapshot_id);
  if (snapshot == nullptr || !snapshot->exists) return DeleteOutcome::kUnknown;
  if (!snapshot->group_snapshot_id.empty()) return DeleteOutcome::kGroupMember;
  snapshot->exists = false;
  names_by_number_.erase(snapshot->number);
  return DeleteOutcome::kDeleted;
}

std::optional<SnapshotRegistry::ListPage> SnapshotRegistry::List(
    const ListFilter& filter, size_t max_entries, const std::string& starting_token) {
  std::lock_guard lock(mu_);
  uint64_t first = 1;
  if (!starting_token.empty()) {
    base::Result<uint64_t> number = base::ParseUint(starting_token, 10, 64);
    if (!number.ok() || *number == 0 || *number > created_) return std::nullopt;
    first = *number;
  }
  ListPage page;
  for (auto it = names_by_number_.lower_bound(first); it != names_by_number_.end(); ++it) {
    Snapshot& snapshot = snapshots_.at(it->second);
    if (!filter.snapshot_id.empty() && snapshot.id != filter.snapshot_id) continue;
    if (!filter.source_volume_id.empty() && snapshot.source_volume_id != filter.source_volume_id) {
      continue;
    }
    if (max_entries != 0 && page.entries.size() == max_entries) {
      page.next_token = std::to_string(it->first);
      break;
    }
    page.entries.push_back(AnswerLocked(it->second, snapshot));
  }
  return page;
}

nlohmann::json SnapshotRegistry::ToJson() const {
  std::lock_guard lock(mu_);
  nlohmann::json snapshots = nlohmann::json::object();
  for (const auto& [name, snapshot] : snapshots_) {
    nlohmann::json entry = snapshot.ToJson(ReadyLocked(snapshot));
    entry["snapshot_id"] = snapshot.id;
    entry["source_volume_id"] = snapshot.source_volume_id;
    entry["group_snapshot_id"] = snapshot.group_snapshot_id;
    entry["list_calls"] = snapshot.list_calls;
    if (snapshot.number != 0) entry["size_bytes"] = snapshot.size_bytes;
    snapshots[name] = std::move(entry);
  }
  nlohmann::json groups = nlohmann::json::object();
  for (const auto& [name, group] : groups_) {
    nlohmann::json entry = group.ToJson(group.readiness.ready);
    entry["group_snapshot_id"] = group.id;
    entry["source_volume_ids"] = group.source_volume_ids;
    nlohmann::json& members = entry["snapshot_ids"] = nlohmann::json::array();
    for (const std::string& member : group.member_names)
      members.push_back(snapshots_.at(member).id);
    entry["get_calls"] = group.get_calls;
    groups[name] = std::move(entry);
  }
  nlohmann::json existing = nlohmann::json::array();
  for (const auto& [number, name] : names_by_number_) existing.push_back(snapshots_.at(name).id);
  nlohmann::json existing_groups = nlohmann::json::array();
  for (const auto& [number, name] : group_names_by_number_) {
    existing_groups.push_back(groups_.at(name).id);
  }
  return {{"snapshots", snapshots},
          {"existing_snapshots", existing},
          {"group_snapshots", groups},
          {"existing_group_snapshots", existing_groups}};
}

bool SnapshotRegistry::ReadyLocked(const Snapshot& snapshot) const {
  if (snapshot.group_snapshot_id.empty()) return snapshot.readiness.ready;
  const Group* group = FindLocked(groups_, group_names_by_id_, snapshot.group_snapshot_id);
  return group != nullptr ? group->readiness.ready : snapshot.readiness.ready;
}

SnapshotRegistry::Answer SnapshotRegistry::ReportLocked(const std::string& name,
                                                        const Snapshot& snapshot) const {
  return {name,
          snapshot.id,
          snapshot.source_volume_id,
          snapshot.size_bytes,
          snapshot.creation_time,
          ReadyLocked(snapshot),
          snapshot.group_snapshot_id};
}

SnapshotRegistry::Answer SnapshotRegistry::AnswerLocked(const std::string& name,
                                                        Snapshot& snapshot) {
  snapshot.readiness.CountAnswer();
  return ReportLocked(name, snapshot);
}

}  // namespace faultdriver
