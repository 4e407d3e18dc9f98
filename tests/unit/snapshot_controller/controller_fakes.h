// A ControllerHandler and GroupHandler for the Controller's tests: it records
// every call in order, fails or blocks chosen keys (testsupport::ScriptedSync,
// one per queue: snapshot and group snapshot keys "namespace/name", content
// and group content names), and answers kSyncSnapshot for chosen contents
// and group contents. Waits on it are real-time thread
// hand-offs, bounded by kHandOffTimeout; time itself comes from a FakeClock.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "kube/runtime/store.h"
#include "snapshot_controller/controller_handler.h"
#include "snapshot_controller/group_handler.h"
#include "tests/support/hand_off.h"
#include "tests/support/scripted_sync.h"

namespace snapshot_controller::testing {

class ScriptedControllerHandler final : public ControllerHandler, public GroupHandler {
 public:
  explicit ScriptedControllerHandler(base::Clock& clock)
      : snapshots_(clock), contents_(clock), group_snapshots_(clock), group_contents_(clock) {}

  // Syncs of VolumeSnapshots and group snapshots, by key, and of contents and
  // group contents, by name.
  testsupport::ScriptedSync& snapshots() { return snapshots_; }
  testsupport::ScriptedSync& contents() { return contents_; }
  testsupport::ScriptedSync& group_snapshots() { return group_snapshots_; }
  testsupport::ScriptedSync& group_contents() { return group_contents_; }

  // The next `times` syncs of (group) content `name` that succeed answer
  // kSyncSnapshot.
  void AskForSnapshotSync(const std::string& name, int times) {
    std::lock_guard lock(mu_);
    ask_for_snapshot_sync_[name] = times;
  }

  base::Status SyncSnapshot(const kube::VolumeSnapshot& snapshot) override {
    const std::string key = kube::Store<kube::VolumeSnapshot>::KeyOf(snapshot);
    Log("sync snapshot " + key + " rv " + snapshot.metadata.resource_version);
    return snapshots_.Sync(key);
  }

  base::Result<ContentSyncOutcome> SyncContent(
      const kube::VolumeSnapshotContent& content) override {
    Log("sync content " + content.metadata.name + " rv " + content.metadata.resource_version);
    return ContentOutcome(contents_, content.metadata.name);
  }

  void SnapshotDeleted(const kube::VolumeSnapshot& snapshot) override {
    Log("deleted " + kube::Store<kube::VolumeSnapshot>::KeyOf(snapshot) + " uid " +
        snapshot.metadata.uid.str());
  }

  base::Status SyncSnapshot(const kube::VolumeGroupSnapshot& group) override {
    const std::string key = kube::Store<kube::VolumeGroupSnapshot>::KeyOf(group);
    Log("sync group snapshot " + key + " rv " + group.metadata.resource_version);
    return group_snapshots_.Sync(key);
  }

  base::Result<ContentSyncOutcome> SyncContent(
      const kube::VolumeGroupSnapshotContent& content) override {
    Log("sync group content " + content.metadata.name + " rv " + content.metadata.resource_version);
    return ContentOutcome(group_contents_, content.metadata.name);
  }

  void SnapshotDeleted(const kube::VolumeGroupSnapshot& group) override {
    Log("deleted group " + kube::Store<kube::VolumeGroupSnapshot>::KeyOf(group) + " uid " +
        group.metadata.uid.str());
  }

  // Every call so far, in order: "sync snapshot <key> rv <rv>",
  // "sync content <name> rv <rv>", "deleted <key> uid <uid>", and for groups
  // "sync group snapshot <key> rv <rv>", "sync group content <name> rv <rv>",
  // "deleted group <key> uid <uid>".
  std::vector<std::string> Calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  // Waits until `call` has been made `n` times.
  bool AwaitCall(const std::string& call, int n = 1) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, testsupport::kHandOffTimeout, [&] { return CountLocked(call) >= n; });
  }
  int Count(const std::string& call) {
    std::lock_guard lock(mu_);
    return CountLocked(call);
  }

 private:
  base::Result<ContentSyncOutcome> ContentOutcome(testsupport::ScriptedSync& syncs,
                                                  const std::string& name) {
    if (base::Status status = syncs.Sync(name); !status.ok()) return status.error();
    std::lock_guard lock(mu_);
    int& asks = ask_for_snapshot_sync_[name];
    if (asks == 0) return ContentSyncOutcome::kDone;
    --asks;
    return ContentSyncOutcome::kSyncSnapshot;
  }

  void Log(std::string call) {
    std::lock_guard lock(mu_);
    calls_.push_back(std::move(call));
    cv_.notify_all();
  }
  int CountLocked(const std::string& call) const {
    int n = 0;
    for (const std::string& made : calls_) n += made == call;
    return n;
  }

  testsupport::ScriptedSync snapshots_;
  testsupport::ScriptedSync contents_;
  testsupport::ScriptedSync group_snapshots_;
  testsupport::ScriptedSync group_contents_;
  std::mutex mu_;  // guards the members below
  std::condition_variable cv_;
  std::vector<std::string> calls_;
  std::map<std::string, int> ask_for_snapshot_sync_;
};

}  // namespace snapshot_controller::testing
