// Fakes for the content controller's tests: a ContentHandler that answers
// from a script and records what it was given, and a counting
// WorkQueueMetrics; the objects come from tests/support/snapshot_objects.h.
// Waits on them are real-time thread hand-offs, bounded by kHandOffTimeout;
// time itself comes from a FakeClock.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/work_queue.h"
#include "snapshotter/content_handler.h"
#include "tests/support/scripted_sync.h"
#include "tests/support/snapshot_objects.h"

namespace snapshotter::testing {

inline constexpr std::string_view kDriver = testsupport::kSnapshotDriver;
using testsupport::MakeClass;
using testsupport::MakeContent;
using testsupport::MakeReadyContent;

// One answer of the scripted handler.
struct Answer {
  enum Kind { kDone, kPoll, kError } kind;
};
inline constexpr Answer kDone{Answer::kDone};
inline constexpr Answer kPoll{Answer::kPoll};
inline constexpr Answer kError{Answer::kError};

// Answers each content's syncs from its script (kDone once the script is
// used up); records every sync's (fake) start time and the resourceVersion
// of the content it was handed; chosen names block until released.
class ScriptedContentHandler final : public ContentHandler {
 public:
  explicit ScriptedContentHandler(base::Clock& clock) : syncs_(clock) {}

  void Script(const std::string& name, std::vector<Answer> answers) {
    std::lock_guard lock(mu_);
    answers_[name].assign(answers.begin(), answers.end());
  }
  void Block(const std::string& name) { syncs_.Block(name); }
  void Release(const std::string& name) { syncs_.Release(name); }

  base::Result<SyncOutcome> SyncContent(const kube::VolumeSnapshotContent& content) override {
    const std::string& name = content.metadata.name;
    {
      std::lock_guard lock(mu_);
      resource_versions_[name].push_back(content.metadata.resource_version);
    }
    (void)syncs_.Sync(name);  // records, and blocks while the name is blocked; never fails
    std::lock_guard lock(mu_);
    std::deque<Answer>& script = answers_[name];
    Answer answer = kDone;
    if (!script.empty()) {
      answer = script.front();
      script.pop_front();
    }
    switch (answer.kind) {
      case Answer::kPoll:
        return SyncOutcome::kPollReadiness;
      case Answer::kError:
        return base::Error("scripted sync failure");
      case Answer::kDone:
        break;
    }
    return SyncOutcome::kDone;
  }

  bool AwaitStarted(const std::string& name, size_t n) { return syncs_.AwaitStarted(name, n); }
  bool AwaitFinished(const std::string& name, int n) { return syncs_.AwaitFinished(name, n); }
  std::vector<base::Clock::TimePoint> StartTimes(const std::string& name) {
    return syncs_.StartTimes(name);
  }
  int Finished(const std::string& name) { return syncs_.Finished(name); }
  // Every sync's name, in the order the syncs started.
  std::vector<std::string> Order() { return syncs_.Order(); }
  int MaxConcurrentSyncsOfOneName() { return syncs_.MaxConcurrentSyncsOfOneKey(); }
  // The resourceVersion of each content `name`'s syncs were handed.
  std::vector<std::string> ResourceVersions(const std::string& name) {
    std::lock_guard lock(mu_);
    return resource_versions_[name];
  }

 private:
  testsupport::ScriptedSync syncs_;
  std::mutex mu_;  // guards the members below
  std::map<std::string, std::deque<Answer>> answers_;
  std::map<std::string, std::vector<std::string>> resource_versions_;
};

class CountingQueueMetrics final : public kube::WorkQueueMetrics {
 public:
  void OnAdd() override { ++adds; }
  std::atomic<int> adds{0};
};

}  // namespace snapshotter::testing
