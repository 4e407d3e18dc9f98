// SnapshotRegistry's group snapshots (the class contract is in the header).
#include <algorithm>

#include "tests/fault_csi_driver/snapshot_registry.h"

namespace faultdriver {
namespace {

std::string MemberName(const std::string& group_name, const std::string& volume_id) {
  return group_name + "/" + volume_id;
}

std::vector<std::string> Sorted(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  return items;
}

std::string Joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ",") + item;
  return text;
}

}  // namespace

void SnapshotRegistry::NoteCreateGroupCall(const std::string& name) {
  std::lock_guard lock(mu_);
  ++groups_[name].create_calls;
}

void SnapshotRegistry::NoteGetGroupCall(const std::string& group_snapshot_id) {
  std::lock_guard lock(mu_);
  CountCallLocked(groups_, group_names_by_id_, group_snapshot_id, &Group::get_calls);
}

void SnapshotRegistry::NoteDeleteGroupCall(const std::string& group_snapshot_id) {
  std::lock_guard lock(mu_);
  CountCallLocked(groups_, group_names_by_id_, group_snapshot_id, &Group::delete_calls);
}

std::optional<std::string> SnapshotRegistry::IdentifyGroup(
    const std::string& group_snapshot_id) const {
  std::lock_guard lock(mu_);
  if (FindLocked(groups_, group_names_by_id_, group_snapshot_id) == nullptr) return std::nullopt;
  return group_names_by_id_.at(group_snapshot_id);
}

SnapshotRegistry::CreateGroupResult SnapshotRegistry::CreateGroup(const NewGroup& request) {
  std::lock_guard lock(mu_);
  std::vector<std::string> sources;
  for (const Source& source : request.sources) sources.push_back(source.volume_id);
  sources = Sorted(std::move(sources));

  Group& group = groups_[request.name];
  if (group.exists) {
    if (group.source_volume_ids != sources) {
      return {CreateOutcome::kOtherSource,
              "group snapshot " + request.name + " exists with source volumes " +
                  Joined(group.source_volume_ids),
              {}};
    }
    return {CreateOutcome::kExisting, "", AnswerGroupLocked(group)};
  }
  for (const std::string& volume_id : sources) {
    const std::string member = MemberName(request.name, volume_id);
    auto taken = snapshots_.find(member);
    if (taken != snapshots_.end() && taken->second.exists) {
      return {CreateOutcome::kOtherSource, "snapshot " + member + " exists", {}};
    }
  }

  const uint64_t number = ++groups_created_;
  group.Renew(number, "group-" + std::to_string(number), request.parameters, request.secret_keys,
              request.ready_after);
  group.source_volume_ids = std::move(sources);
  group.member_names.clear();
  for (const Source& source : request.sources) {
    const std::string member = MemberName(request.name, source.volume_id);
    Snapshot& snapshot = snapshots_[member];
    // A member's own readiness is never consulted: it is ready when its group is.
    CutLocked(member, snapshot,
              {member, source.volume_id, source.snapshot_size_bytes, request.parameters,
               request.secret_keys, std::nullopt});
    snapshot.creation_time = group.creation_time;  // one point in time for all
    snapshot.group_snapshot_id = group.id;
    group.member_names.push_back(member);
  }
  group_names_by_id_[group.id] = request.name;
  group_names_by_number_[number] = request.name;
  return {CreateOutcome::kCreated, "", AnswerGroupLocked(group)};
}

SnapshotRegistry::GetGroupResult SnapshotRegistry::GetGroup(
    const std::string& group_snapshot_id, const std::vector<std::string>& snapshot_ids) {
  std::lock_guard lock(mu_);
  Group* group = nullptr;
  const GroupMatch match = MatchGroupLocked(group_snapshot_id, snapshot_ids, &group);
  if (match != GroupMatch::kMatches) return {match, {}};
  return {match, AnswerGroupLocked(*group)};
}

GroupMatch SnapshotRegistry::DeleteGroup(const std::string& group_snapshot_id,
                                         const std::vector<std::string>& snapshot_ids) {
  std::lock_guard lock(mu_);
  Group* group = nullptr;
  const GroupMatch match = MatchGroupLocked(group_snapshot_id, snapshot_ids, &group);
  if (match != GroupMatch::kMatches) return match;
  group->exists = false;
  group_names_by_number_.erase(group->number);
  for (const std::string& member : group->member_names) {
    Snapshot& snapshot = snapshots_.at(member);
    snapshot.exists = false;
    names_by_number_.erase(snapshot.number);
  }
  return match;
}

GroupMatch SnapshotRegistry::MatchGroupLocked(const std::string& group_snapshot_id,
                                              const std::vector<std::string>& snapshot_ids,
                                              Group** group) {
  Group* found = FindLocked(groups_, group_names_by_id_, group_snapshot_id);
  if (found == nullptr || !found->exists) return GroupMatch::kUnknown;
  std::vector<std::string> members;
  for (const std::string& member : found->member_names) members.push_back(snapshots_.at(member).id);
  if (Sorted(std::move(members)) != Sorted(snapshot_ids)) return GroupMatch::kOtherSnapshots;
  *group = found;
  return GroupMatch::kMatches;
}

SnapshotRegistry::GroupAnswer SnapshotRegistry::AnswerGroupLocked(Group& group) {
  group.readiness.CountAnswer();
  GroupAnswer answer{group.id, group.creation_time, group.readiness.ready, {}};
  for (const std::string& member : group.member_names) {
    answer.snapshots.push_back(AnswerLocked(member, snapshots_.at(member)));
  }
  return answer;
}

}  // namespace faultdriver
