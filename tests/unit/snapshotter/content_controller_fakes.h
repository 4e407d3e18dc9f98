// Fakes for the content controllers' tests (either kind): a handler that
// answers from a script and records what it was given, a counting
// WorkQueueMetrics, and the ControllerWorld fixture; the objects come from
// tests/support/snapshot_objects.h. Waits on them are real-time thread hand-offs, bounded by
// kHandOffTimeout; time itself comes from a FakeClock.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "kube/runtime/work_queue.h"
#include "snapshotter/content_controller.h"
#include "snapshotter/content_handler.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/support/scripted_sync.h"
#include "tests/support/snapshot_objects.h"

namespace snapshotter::testing {

// Not kDriver: handler_fixtures.h has its own, and both are in one namespace.
using testsupport::kSnapshotDriver;
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
template <class Content>
class ScriptedContentHandlerOf final : public ContentHandlerOf<Content> {
 public:
  explicit ScriptedContentHandlerOf(base::Clock& clock) : syncs_(clock) {}

  void Script(const std::string& name, std::vector<Answer> answers) {
    std::lock_guard lock(mu_);
    answers_[name].assign(answers.begin(), answers.end());
  }
  void Block(const std::string& name) { syncs_.Block(name); }
  void Release(const std::string& name) { syncs_.Release(name); }

  base::Result<SyncOutcome> SyncContent(const Content& content) override {
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

using ScriptedContentHandler = ScriptedContentHandlerOf<kube::VolumeSnapshotContent>;

class CountingQueueMetrics final : public kube::WorkQueueMetrics {
 public:
  void OnAdd() override { ++adds; }
  std::atomic<int> adds{0};
};

inline constexpr base::Clock::TimePoint kStart{};
inline constexpr auto kTimerWait = std::chrono::seconds(5);

// A ContentControllerOf<Kind> running on its own thread over scripted
// listers, a scripted handler and a fake clock.
template <class Kind>
class ControllerWorld : public ::testing::Test {
 protected:
  using Content = typename Kind::Content;
  using Class = typename Kind::Class;

  // Starts Run() on its own thread with the scripted listers.
  void Start(uint32_t workers, std::vector<Content> contents, std::vector<Class> classes = {}) {
    content_lister_.SetItems(std::move(contents));
    class_lister_.SetItems(std::move(classes));
    kube::ReflectorOptions reflector_options;
    reflector_options.resync_period = resync_period_;
    informers_.emplace(reflector_options, clock_);
    informers_->UseSource(content_lister_);
    informers_->UseSource(class_lister_);
    controller_.emplace(std::string(kSnapshotDriver), handler_, *informers_,
                        ContentControllerOptions{.worker_threads = workers,
                                                 .retry_interval_start = std::chrono::seconds(1),
                                                 .retry_interval_max = retry_interval_max_,
                                                 .resync_period = resync_period_},
                        clock_, &metrics_);
    run_ = std::jthread([this](std::stop_token stop) {
      kube::RunWithInformers(*informers_, stop, *controller_);
      if (on_run_returned_) on_run_returned_();
    });
  }
  void Stop() {
    run_.request_stop();
    run_.join();
  }

  // Waits until the queue's timer is set for exactly `deadline`, then moves
  // the clock there.
  void AdvanceToTimer(base::Clock::TimePoint deadline) {
    ASSERT_TRUE(clock_.AwaitSleeperDeadlines({deadline}, kTimerWait))
        << "no timer for " << (deadline - kStart) / std::chrono::milliseconds(1) << "ms";
    clock_.Advance(deadline - clock_.Now());
  }

  // Sends `content` as a watch update and waits until the controller has
  // handled it.
  void SendUpdate(const Content& content) {
    content_lister_.Send(kube::WatchEventType::kModified, content);
    ASSERT_TRUE(content_lister_.AwaitDelivered(++sent_));
  }

  std::chrono::milliseconds retry_interval_max_ = std::chrono::minutes(5);
  // None: no resync thread sleeps on clock_.
  std::chrono::milliseconds resync_period_ = std::chrono::milliseconds(0);
  // Called on Run's thread the moment Run returns.
  std::function<void()> on_run_returned_;
  int sent_ = 0;
  base::FakeClock clock_;
  ScriptedContentHandlerOf<Content> handler_{clock_};
  testsupport::FakeListerWatcher<Content> content_lister_;
  testsupport::FakeListerWatcher<Class> class_lister_;
  CountingQueueMetrics metrics_;
  std::optional<kube::InformerSet> informers_;
  std::optional<ContentControllerOf<Kind>> controller_;
  std::jthread run_;  // last: stops and joins before the rest goes
};

}  // namespace snapshotter::testing
