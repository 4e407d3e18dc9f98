// SnapshotRegistry: the fake back end's snapshots and group snapshots and,
// per name, the counters that let tests assert "DeleteSnapshot called once,
// nothing left" (format in README.md).
//
// A name is the CSI idempotency key: creating it again from the same source
// (a group: the same set of sources) answers the existing one, from another
// source is refused. Snapshot IDs are "handle-<n>", group IDs "group-<n>", n
// counting creations: unlike the sidecars' names ("snapshot-<uid>",
// "groupsnapshot-<uid>"), so a caller mixing the two is caught, and a
// re-created name gets a new ID. Deleted snapshots and groups keep their
// entry (counters, what they were created with) with exists=false.
//
// A group's members are ordinary snapshots named "<group name>/<source
// volume>" that carry the group's ID: listed like any other, deleted only
// with their group (docs: README.md, "Group snapshots").
//
// Readiness is the snapshot's or group's own: it is ready from its
// ready_after-th answer on, an answer being a create call or (a snapshot) a
// ListSnapshots entry or (a group) a GetVolumeGroupSnapshot that reports it;
// once ready it stays ready. A member is ready when its group is. Thread-safe.
#pragma once

#include <google/protobuf/timestamp.pb.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace faultdriver {

enum class CreateOutcome { kCreated, kExisting, kOtherSource };
enum class DeleteOutcome { kDeleted, kUnknown, kGroupMember };
// How a group snapshot call's group_snapshot_id and snapshot_ids fit a group.
enum class GroupMatch { kMatches, kUnknown, kOtherSnapshots };

class SnapshotRegistry {
 public:
  using Parameters = std::map<std::string, std::string>;

  struct NewSnapshot {
    std::string name;
    std::string source_volume_id;
    int64_t size_bytes = 0;
    Parameters parameters = {};
    std::vector<std::string> secret_keys = {};  // values are never kept
    // nullopt: never ready.
    std::optional<int64_t> ready_after = 1;
  };

  struct Source {
    std::string volume_id;
    int64_t snapshot_size_bytes = 0;
  };
  struct NewGroup {
    std::string name;
    std::vector<Source> sources;  // distinct volumes
    Parameters parameters = {};
    std::vector<std::string> secret_keys = {};
    std::optional<int64_t> ready_after = 1;
  };

  // One answer about a snapshot, as CSI reports it.
  struct Answer {
    std::string name;
    std::string snapshot_id;
    std::string source_volume_id;
    int64_t size_bytes = 0;
    google::protobuf::Timestamp creation_time;
    bool ready_to_use = false;
    std::string group_snapshot_id;  // empty: not a member
  };
  struct GroupAnswer {
    std::string group_snapshot_id;
    google::protobuf::Timestamp creation_time;
    bool ready_to_use = false;
    std::vector<Answer> snapshots;  // in the order of the creating call's sources
  };

  struct CreateResult {
    CreateOutcome outcome;
    Answer snapshot;  // kOtherSource: the existing one, not counted as an answer
  };
  struct CreateGroupResult {
    CreateOutcome outcome;
    // kOtherSource: the sources of the existing group, or the existing
    // snapshot whose name a member would take.
    std::string conflict;
    GroupAnswer group;  // kCreated, kExisting
  };
  struct GetGroupResult {
    GroupMatch match;
    GroupAnswer group;  // kMatches
  };

  struct ListFilter {
    std::string snapshot_id;       // empty: any
    std::string source_volume_id;  // empty: any
  };
  struct ListPage {
    std::vector<Answer> entries;
    std::string next_token;  // empty on the last page
  };

  // Count a call as received (faulted or not). Create calls make the name
  // known; the others count only for an ID that was handed out.
  void NoteCreateCall(const std::string& name);
  void NoteDeleteCall(const std::string& snapshot_id);
  void NoteListCall(const std::string& snapshot_id);
  void NoteCreateGroupCall(const std::string& name);
  void NoteGetGroupCall(const std::string& group_snapshot_id);
  void NoteDeleteGroupCall(const std::string& group_snapshot_id);

  // The name and source volume behind an ID handed out (deleted or not), for
  // the fault rules' filters.
  struct Identity {
    std::string name;
    std::string source_volume_id;
  };
  std::optional<Identity> Identify(const std::string& snapshot_id) const;
  // The name behind a group ID handed out (deleted or not).
  std::optional<std::string> IdentifyGroup(const std::string& group_snapshot_id) const;

  CreateResult Create(const NewSnapshot& request);
  // kGroupMember: the snapshot is deleted with its group only (CSI lets the
  // plugin refuse).
  DeleteOutcome Delete(const std::string& snapshot_id);
  // Existing snapshots matching `filter`, in creation order; `max_entries` 0
  // means all. The token is the creation number of the next page's first
  // snapshot, so deletions between pages neither shift nor repeat entries.
  // nullopt: the token was never handed out.
  std::optional<ListPage> List(const ListFilter& filter, size_t max_entries,
                               const std::string& starting_token);

  // Cuts every member at one creation_time.
  CreateGroupResult CreateGroup(const NewGroup& request);
  // `snapshot_ids` must be the group's members, in any order.
  GetGroupResult GetGroup(const std::string& group_snapshot_id,
                          const std::vector<std::string>& snapshot_ids);
  // Deletes the group and its members. kUnknown also for a deleted group.
  GroupMatch DeleteGroup(const std::string& group_snapshot_id,
                         const std::vector<std::string>& snapshot_ids);

  // {"snapshots": {name: {...}}, "existing_snapshots": [ids],
  //  "group_snapshots": {name: {...}}, "existing_group_snapshots": [ids]}
  nlohmann::json ToJson() const;

 private:
  struct Readiness {
    std::optional<int64_t> ready_after;  // nullopt: never
    bool ready = false;
    int64_t answers = 0;

    void CountAnswer();
  };

  // What snapshots and groups have alike.
  struct Cut {
    uint64_t number = 0;  // creation number; 0 until created
    std::string id;
    google::protobuf::Timestamp creation_time;
    Parameters parameters;
    std::vector<std::string> secret_keys;
    Readiness readiness;
    bool exists = false;
    int64_t create_calls = 0;
    int64_t delete_calls = 0;

    // Starts a new life under the same name.
    void Renew(uint64_t new_number, std::string new_id, const Parameters& new_parameters,
               const std::vector<std::string>& new_secret_keys, std::optional<int64_t> ready_after);
    nlohmann::json ToJson(bool ready) const;
  };

  struct Snapshot : Cut {
    std::string source_volume_id;
    int64_t size_bytes = 0;
    std::string group_snapshot_id;  // empty: not a member
    int64_t list_calls = 0;
  };

  struct Group : Cut {
    std::vector<std::string> source_volume_ids;  // sorted
    std::vector<std::string> member_names;       // in the creating call's order
    int64_t get_calls = 0;
  };

  // The snapshot or group `id` names now in `by_name`; nullptr if it was
  // never handed out or its name has been re-created since. Needs mu_.
  template <typename ByName>
  static auto FindLocked(ByName& by_name, const std::map<std::string, std::string>& names_by_id,
                         const std::string& id) -> decltype(&by_name.begin()->second) {
    auto name = names_by_id.find(id);
    if (name == names_by_id.end()) return nullptr;
    auto& entry = by_name.at(name->second);
    return entry.id == id ? &entry : nullptr;
  }
  // Counts a call for the snapshot or group `id` names, if any. Needs mu_.
  template <typename ByName, typename Counter>
  static void CountCallLocked(ByName& by_name,
                              const std::map<std::string, std::string>& names_by_id,
                              const std::string& id, Counter counter) {
    if (auto* entry = FindLocked(by_name, names_by_id, id)) ++(entry->*counter);
  }
  // Whether `snapshot` is ready: its group's readiness for a member of a
  // group that is not re-created since. Needs mu_.
  bool ReadyLocked(const Snapshot& snapshot) const;
  // Reports `snapshot` without counting an answer. Needs mu_.
  Answer ReportLocked(const std::string& name, const Snapshot& snapshot) const;
  // Counts one answer about `snapshot` and reports it. Needs mu_.
  Answer AnswerLocked(const std::string& name, Snapshot& snapshot);
  // Counts one answer about `group` (and its members) and reports it. Needs mu_.
  GroupAnswer AnswerGroupLocked(Group& group);
  // The existing group `group_snapshot_id` names, checked against the
  // caller's snapshot IDs. Needs mu_.
  GroupMatch MatchGroupLocked(const std::string& group_snapshot_id,
                              const std::vector<std::string>& snapshot_ids, Group** group);
  // Takes the next creation number for `snapshot` under `name`. Needs mu_.
  void CutLocked(const std::string& name, Snapshot& snapshot, const NewSnapshot& request);

  mutable std::mutex mu_;
  std::map<std::string, Snapshot> snapshots_;              // guarded by mu_: by name
  std::map<std::string, std::string> names_by_id_;         // guarded by mu_
  std::map<uint64_t, std::string> names_by_number_;        // guarded by mu_: existing only
  uint64_t created_ = 0;                                   // guarded by mu_
  std::map<std::string, Group> groups_;                    // guarded by mu_: by name
  std::map<std::string, std::string> group_names_by_id_;   // guarded by mu_
  std::map<uint64_t, std::string> group_names_by_number_;  // guarded by mu_: existing only
  uint64_t groups_created_ = 0;                            // guarded by mu_
};

}  // namespace faultdriver
