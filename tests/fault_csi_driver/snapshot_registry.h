// SnapshotRegistry: the fake back end's snapshots and, per snapshot name,
// the counters that let tests assert "DeleteSnapshot called once, nothing
// left" (format in README.md).
//
// A name is the CSI idempotency key: creating it again from the same source
// answers the existing snapshot, from another source is refused. IDs are
// "handle-<n>", n counting creations: unlike the sidecars' names
// ("snapshot-<uid>"), so a caller mixing the two is caught, and a re-created
// name gets a new ID. Deleted snapshots keep their entry (counters,
// what they were created with) with exists=false.
//
// Readiness is the snapshot's own: it is ready from its ready_after-th answer
// on, an answer being a CreateSnapshot or a ListSnapshots entry that reports
// it; once ready it stays ready. Thread-safe.
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

  // One answer about a snapshot, as CSI reports it.
  struct Answer {
    std::string name;
    std::string snapshot_id;
    std::string source_volume_id;
    int64_t size_bytes = 0;
    google::protobuf::Timestamp creation_time;
    bool ready_to_use = false;
  };

  struct CreateResult {
    CreateOutcome outcome;
    Answer snapshot;  // kOtherSource: the existing one, not counted as an answer
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
  // known; delete and list calls count only for an ID that was handed out.
  void NoteCreateCall(const std::string& name);
  void NoteDeleteCall(const std::string& snapshot_id);
  void NoteListCall(const std::string& snapshot_id);

  // The name and source volume behind an ID handed out (deleted or not), for
  // the fault rules' filters.
  struct Identity {
    std::string name;
    std::string source_volume_id;
  };
  std::optional<Identity> Identify(const std::string& snapshot_id) const;

  CreateResult Create(const NewSnapshot& request);
  // False when no snapshot with this ID exists (CSI answers OK anyway).
  bool Delete(const std::string& snapshot_id);
  // Existing snapshots matching `filter`, in creation order; `max_entries` 0
  // means all. The token is the creation number of the next page's first
  // snapshot, so deletions between pages neither shift nor repeat entries.
  // nullopt: the token was never handed out.
  std::optional<ListPage> List(const ListFilter& filter, size_t max_entries,
                               const std::string& starting_token);

  // {"snapshots": {name: {...}}, "existing_snapshots": [ids]}
  nlohmann::json ToJson() const;

 private:
  struct Snapshot {
    uint64_t number = 0;  // creation number; 0 until created
    std::string snapshot_id;
    std::string source_volume_id;
    int64_t size_bytes = 0;
    google::protobuf::Timestamp creation_time;
    Parameters parameters;
    std::vector<std::string> secret_keys;
    std::optional<int64_t> ready_after;
    bool exists = false;
    bool ready = false;
    int64_t answers = 0;
    int64_t create_calls = 0;
    int64_t delete_calls = 0;
    int64_t list_calls = 0;
  };

  // The snapshot `snapshot_id` names now; nullptr if it was never handed out
  // or its name has been re-created since. Needs mu_.
  Snapshot* FindLocked(const std::string& snapshot_id);
  const Snapshot* FindLocked(const std::string& snapshot_id) const;
  // Counts one answer about `snapshot` and reports it. Needs mu_.
  Answer AnswerLocked(const std::string& name, Snapshot& snapshot);

  mutable std::mutex mu_;
  std::map<std::string, Snapshot> snapshots_;        // guarded by mu_: by name
  std::map<std::string, std::string> names_by_id_;   // guarded by mu_
  std::map<uint64_t, std::string> names_by_number_;  // guarded by mu_: existing only
  uint64_t created_ = 0;                             // guarded by mu_
};

}  // namespace faultdriver
