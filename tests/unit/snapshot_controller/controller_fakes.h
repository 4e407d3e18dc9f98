// A ControllerHandler for the Controller's tests: it records every call in
// order, fails or blocks chosen keys (testsupport::ScriptedSync, one per
// queue: snapshot keys "namespace/name", content names), and answers
// kSyncSnapshot for chosen contents. Waits on it are real-time thread
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
#include "tests/support/hand_off.h"
#include "tests/support/scripted_sync.h"

namespace snapshot_controller::testing {

class ScriptedControllerHandler final : public ControllerHandler {
 public:
  explicit ScriptedControllerHandler(base::Clock& clock) : snapshots_(clock), contents_(clock) {}

  // Syncs of VolumeSnapshots, by key, and of contents, by name.
  testsupport::ScriptedSync& snapshots() { return snapshots_; }
  testsupport::ScriptedSync& contents() { return contents_; }

  // The next `times` syncs of content `name` that succeed answer kSyncSnapshot.
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
    const std::string& name = content.metadata.name;
    Log("sync content " + name + " rv " + content.metadata.resource_version);
    if (base::Status status = contents_.Sync(name); !status.ok()) return status.error();
    std::lock_guard lock(mu_);
    int& asks = ask_for_snapshot_sync_[name];
    if (asks == 0) return ContentSyncOutcome::kDone;
    --asks;
    return ContentSyncOutcome::kSyncSnapshot;
  }

  void SnapshotDeleted(const kube::VolumeSnapshot& snapshot) override {
    Log("deleted " + kube::Store<kube::VolumeSnapshot>::KeyOf(snapshot) + " uid " +
        snapshot.metadata.uid);
  }

  // Every call so far, in order: "sync snapshot <key> rv <rv>",
  // "sync content <name> rv <rv>", "deleted <key> uid <uid>".
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
  std::mutex mu_;  // guards the members below
  std::condition_variable cv_;
  std::vector<std::string> calls_;
  std::map<std::string, int> ask_for_snapshot_sync_;
};

}  // namespace snapshot_controller::testing
