#include "tests/fault_csi_driver/snapshot_registry.h"

#include <google/protobuf/util/time_util.h>

#include <utility>

#include "base/strconv.h"

namespace faultdriver {

void SnapshotRegistry::NoteCreateCall(const std::string& name) {
  std::lock_guard lock(mu_);
  ++snapshots_[name].create_calls;
}

void SnapshotRegistry::NoteDeleteCall(const std::string& snapshot_id) {
  std::lock_guard lock(mu_);
  if (Snapshot* snapshot = FindLocked(snapshot_id)) ++snapshot->delete_calls;
}

void SnapshotRegistry::NoteListCall(const std::string& snapshot_id) {
  std::lock_guard lock(mu_);
  if (Snapshot* snapshot = FindLocked(snapshot_id)) ++snapshot->list_calls;
}

std::optional<SnapshotRegistry::Identity> SnapshotRegistry::Identify(
    const std::string& snapshot_id) const {
  std::lock_guard lock(mu_);
  const Snapshot* snapshot = FindLocked(snapshot_id);
  if (snapshot == nullptr) return std::nullopt;
  return Identity{names_by_id_.at(snapshot_id), snapshot->source_volume_id};
}

SnapshotRegistry::CreateResult SnapshotRegistry::Create(const NewSnapshot& request) {
  std::lock_guard lock(mu_);
  Snapshot& snapshot = snapshots_[request.name];
  if (snapshot.exists) {
    if (snapshot.source_volume_id != request.source_volume_id) {
      return {CreateOutcome::kOtherSource,
              {request.name, snapshot.snapshot_id, snapshot.source_volume_id, snapshot.size_bytes,
               snapshot.creation_time, snapshot.ready}};
    }
    return {CreateOutcome::kExisting, AnswerLocked(request.name, snapshot)};
  }
  snapshot.number = ++created_;
  snapshot.snapshot_id = "handle-" + std::to_string(snapshot.number);
  snapshot.source_volume_id = request.source_volume_id;
  snapshot.size_bytes = request.size_bytes;
  snapshot.creation_time = google::protobuf::util::TimeUtil::GetCurrentTime();
  snapshot.parameters = request.parameters;
  snapshot.secret_keys = request.secret_keys;
  snapshot.ready_after = request.ready_after;
  snapshot.exists = true;
  snapshot.ready = false;
  snapshot.answers = 0;
  names_by_id_[snapshot.snapshot_id] = request.name;
  names_by_number_[snapshot.number] = request.name;
  return {CreateOutcome::kCreated, AnswerLocked(request.name, snapshot)};
}

bool SnapshotRegistry::Delete(const std::string& snapshot_id) {
  std::lock_guard lock(mu_);
  Snapshot* snapshot = FindLocked(snapshot_id);
  if (snapshot == nullptr || !snapshot->exists) return false;
  snapshot->exists = false;
  names_by_number_.erase(snapshot->number);
  return true;
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
    if (!filter.snapshot_id.empty() && snapshot.snapshot_id != filter.snapshot_id) continue;
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
  nlohmann::json existing = nlohmann::json::array();
  for (const auto& [name, snapshot] : snapshots_) {
    nlohmann::json entry = {{"snapshot_id", snapshot.snapshot_id},
                            {"source_volume_id", snapshot.source_volume_id},
                            {"exists", snapshot.exists},
                            {"ready", snapshot.ready},
                            {"answers", snapshot.answers},
                            {"create_calls", snapshot.create_calls},
                            {"delete_calls", snapshot.delete_calls},
                            {"list_calls", snapshot.list_calls}};
    if (snapshot.number != 0) {
      entry["size_bytes"] = snapshot.size_bytes;
      entry["creation_time"] = google::protobuf::util::TimeUtil::ToString(snapshot.creation_time);
      entry["parameters"] = snapshot.parameters;
      entry["secrets"] = snapshot.secret_keys;
    }
    snapshots[name] = std::move(entry);
  }
  for (const auto& [number, name] : names_by_number_) {
    existing.push_back(snapshots_.at(name).snapshot_id);
  }
  return {{"snapshots", snapshots}, {"existing_snapshots", existing}};
}

SnapshotRegistry::Snapshot* SnapshotRegistry::FindLocked(const std::string& snapshot_id) {
  return const_cast<Snapshot*>(std::as_const(*this).FindLocked(snapshot_id));
}

const SnapshotRegistry::Snapshot* SnapshotRegistry::FindLocked(
    const std::string& snapshot_id) const {
  auto name = names_by_id_.find(snapshot_id);
  if (name == names_by_id_.end()) return nullptr;
  const Snapshot& snapshot = snapshots_.at(name->second);
  return snapshot.snapshot_id == snapshot_id ? &snapshot : nullptr;
}

SnapshotRegistry::Answer SnapshotRegistry::AnswerLocked(const std::string& name,
                                                        Snapshot& snapshot) {
  ++snapshot.answers;
  if (snapshot.ready_after && snapshot.answers >= *snapshot.ready_after) snapshot.ready = true;
  return {name,
          snapshot.snapshot_id,
          snapshot.source_volume_id,
          snapshot.size_bytes,
          snapshot.creation_time,
          snapshot.ready};
}

}  // namespace faultdriver
