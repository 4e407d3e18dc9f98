#include "kube/runtime/reconcile_loop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/client/write_observer.h"
#include "scripted_api.h"
#include "tests/support/hand_off.h"
#include "tests/support/scripted_sync.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using testing::MakeVa;
using testsupport::kHandOffTimeout;
using Lane = WorkQueue::Lane;
using VolumeAttachment = kube::VolumeAttachment;

class CountingMetrics final : public WorkQueueMetrics {
 public:
  void OnRetry() override { ++retries; }
  std::atomic<int> retries{0};
};

class ReconcileLoopTest : public ::testing::Test {
 protected:
  // Builds the loop; keys added before Run() wait for its workers.
  void MakeLoop(uint32_t workers, std::chrono::milliseconds retry_start = 1s,
                std::chrono::milliseconds retry_max = 4s, ReconcileLoop::LaneOf lane_of = {}) {
    if (!lane_of) lane_of = [](const std::string&) { return Lane::kNormal; };
    loop_.emplace(
        ControllerOptions{.name = "test-queue",
                          .workers = workers,
                          .retry_start = retry_start,
                          .retry_max = retry_max,
                          .requeue_start = 2s,
                          .requeue_max = 8s,
                          .metrics = &metrics_},
        VolumeAttachment::kFacts, clock_, [this](const std::string& key) { return Reconcile(key); },
        std::move(lane_of));
  }
  // The scripted sync, after the writes scripted for `key` and with the
  // action scripted for it.
  ReconcileResult Reconcile(const std::string& key) {
    std::vector<std::string> writes;
    std::optional<Action> action;
    {
      std::lock_guard lock(mu_);
      writes = writes_[key];
      if (auto it = actions_.find(key); it != actions_.end()) action = it->second;
    }
    for (const std::string& version : writes) ReportWrite(MakeVa(key, version));
    if (auto it = also_write_.find(key); it != also_write_.end()) it->second();
    base::Status status = sync_.Sync(key);
    if (!status.ok() || !action) return DoneOr(status);
    return *action;
  }
  // Each reconcile of `key` writes it, answered with these resourceVersions.
  void WriteOnReconcile(const std::string& key, std::vector<std::string> versions) {
    std::lock_guard lock(mu_);
    writes_[key] = std::move(versions);
  }
  void AnswerOnReconcile(const std::string& key, Action action) {
    std::lock_guard lock(mu_);
    actions_[key] = action;
  }
  void Run() {
    runner_ = std::jthread([this] {
      loop_->Run(stop_.get_token());
      if (on_run_returned_) on_run_returned_();
    });
  }
  void Stop() {
    stop_.request_stop();
    if (runner_.joinable()) runner_.join();
  }
  void TearDown() override { Stop(); }

  base::FakeClock clock_;
  testsupport::ScriptedSync sync_{clock_};
  CountingMetrics metrics_;
  std::mutex mu_;  // guards writes_ and actions_
  std::map<std::string, std::vector<std::string>> writes_;
  std::map<std::string, Action> actions_;
  std::map<std::string, std::function<void()>> also_write_;  // set before Run()
  std::optional<ReconcileLoop> loop_;
  std::stop_source stop_;
  std::function<void()> on_run_returned_;  // called on the runner the moment Run returns
  std::jthread runner_;                    // last: joins before the rest goes
};

TEST_F(ReconcileLoopTest, SyncsEveryKeyAndForgetsSuccess) {
  MakeLoop(2);
  loop_->queue().Add("a");
  loop_->queue().Add("b");
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  ASSERT_TRUE(sync_.AwaitFinished("b", 1));
  Stop();
  EXPECT_THAT(sync_.StartTimes("a"), ElementsAre(base::Clock::TimePoint{}));
  EXPECT_THAT(sync_.StartTimes("b"), ElementsAre(base::Clock::TimePoint{}));
  EXPECT_EQ(loop_->queue().name(), "test-queue");
  EXPECT_EQ(metrics_.retries, 0);
}

TEST_F(ReconcileLoopTest, FailuresBackOffDoublingUpToTheCapAndSuccessForgetsThem) {
  MakeLoop(1, 1s, 4s);
  sync_.Fail("a", 4);
  const base::Clock::TimePoint start = clock_.Now();
  loop_->queue().Add("a");
  Run();
  base::Clock::TimePoint retry_at = start;
  size_t syncs = 1;
  for (auto backoff : {1s, 2s, 4s, 4s}) {
    ASSERT_TRUE(sync_.AwaitStarted("a", syncs));
    retry_at += backoff;
    // The queue's timer sleeps until the backoff has passed.
    ASSERT_TRUE(clock_.AwaitSleeperDeadlines({retry_at}, kHandOffTimeout)) << "retry " << syncs;
    clock_.Advance(backoff);
    ++syncs;
  }
  ASSERT_TRUE(sync_.AwaitFinished("a", 5));
  Stop();
  EXPECT_THAT(sync_.StartTimes("a"),
              ElementsAre(start, start + 1s, start + 3s, start + 7s, start + 11s));
  EXPECT_EQ(metrics_.retries, 4);
  EXPECT_EQ(loop_->queue().NumRequeues("a"), 0);
}

TEST_F(ReconcileLoopTest, UrgentKeysGoFirstAndRetriesTakeTheLaneLaneOfPicks) {
  // No backoff, so a retry is queued at once, behind or ahead of the rest.
  MakeLoop(1, 0ms, 0ms, [](const std::string& key) {
    return key == "retried-urgently" ? Lane::kUrgent : Lane::kNormal;
  });
  sync_.Fail("retried-urgently", 1);
  sync_.Fail("retried-normally", 1);
  loop_->queue().Add("retried-normally");
  loop_->queue().Add("retried-urgently");
  loop_->queue().Add("normal");
  loop_->queue().Add("urgent", Lane::kUrgent);
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("retried-normally", 2));
  Stop();
  EXPECT_THAT(sync_.Order(), ElementsAre("urgent", "retried-normally", "retried-urgently",
                                         "retried-urgently", "normal", "retried-normally"));
}

TEST_F(ReconcileLoopTest, StopDrainsTheSyncInFlightAndStartsNoQueuedOne) {
  int a_finished_at_return = -1;
  on_run_returned_ = [&] { a_finished_at_return = sync_.Finished("a"); };
  MakeLoop(1);
  sync_.Block("a");
  loop_->queue().Add("a");
  loop_->queue().Add("b");
  Run();
  ASSERT_TRUE(sync_.AwaitStarted("a", 1));
  // The queue stops taking work before request_stop() returns; Run must then
  // wait for "a", whenever it is released.
  stop_.request_stop();
  loop_->queue().Add("c");
  sync_.Release("a");
  runner_.join();
  EXPECT_EQ(a_finished_at_return, 1);
  EXPECT_THAT(sync_.Order(), ElementsAre("a"));
}

TEST_F(ReconcileLoopTest, NeverHandsOneKeyToTwoWorkers) {
  MakeLoop(4);
  sync_.Block("a");
  loop_->queue().Add("a");
  Run();
  ASSERT_TRUE(sync_.AwaitStarted("a", 1));
  // Re-adds while "a" is in flight collapse into one later sync; the other
  // workers neither take "a" nor wait for it.
  for (int i = 0; i < 3; ++i) loop_->queue().Add("a");
  loop_->queue().Add("b");
  ASSERT_TRUE(sync_.AwaitFinished("b", 1));
  sync_.Release("a");
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  Stop();
  EXPECT_EQ(sync_.StartTimes("a").size(), 2u);
  EXPECT_EQ(sync_.MaxConcurrentSyncsOfOneKey(), 1);
}

// The events of the loop's own writes - here, one arriving while the
// reconcile that wrote is still running and one after it - cause no second
// reconcile; an event of another writer does.
TEST_F(ReconcileLoopTest, OwnWritesNeverCauseASecondReconcile) {
  MakeLoop(1);
  WriteOnReconcile("a", {"11", "12"});
  sync_.Block("a");
  loop_->Enqueue("a", Lane::kNormal);
  Run();
  ASSERT_TRUE(sync_.AwaitStarted("a", 1));
  loop_->OnChange("a", "11", Lane::kNormal);  // the finalizer patch's event, mid-reconcile
  sync_.Release("a");
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  loop_->OnChange("a", "12", Lane::kNormal);  // the status patch's event, after it
  // A key queued behind these events proves they were handled: one worker,
  // FIFO, so had "a" been queued again it would have been reconciled first.
  loop_->Enqueue("b", Lane::kNormal);
  ASSERT_TRUE(sync_.AwaitFinished("b", 1));
  EXPECT_THAT(sync_.Order(), ElementsAre("a", "b"));

  loop_->OnChange("a", "13", Lane::kNormal);  // somebody else's change
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  Stop();
  EXPECT_THAT(sync_.Order(), ElementsAre("a", "b", "a"));
}

TEST_F(ReconcileLoopTest, AnotherWritersChangeDuringAReconcileQueuesTheKeyAgain) {
  MakeLoop(1);
  WriteOnReconcile("a", {"11"});
  sync_.Block("a");
  loop_->Enqueue("a", Lane::kNormal);
  Run();
  ASSERT_TRUE(sync_.AwaitStarted("a", 1));
  loop_->OnChange("a", "11", Lane::kNormal);  // ours
  loop_->OnChange("a", "12", Lane::kNormal);  // theirs
  WriteOnReconcile("a", {});
  sync_.Release("a");
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  Stop();
  EXPECT_THAT(sync_.Order(), ElementsAre("a", "a"));
}

// Writes of other objects of the kind are the loop's own too; writes of
// another kind are not.
TEST_F(ReconcileLoopTest, OwnWritesAreKeyedByTheWrittenObjectAndItsKind) {
  MakeLoop(1);
  also_write_["a"] = [] {
    ReportWrite(MakeVa("c", "31"));
    kube::PersistentVolume pv;
    pv.metadata.name = "b";
    pv.metadata.resource_version = "21";
    ReportWrite(pv);
  };
  loop_->Enqueue("a", Lane::kNormal);
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  loop_->OnChange("c", "31", Lane::kNormal);  // dropped: written by the reconcile of "a"
  loop_->OnChange("b", "21", Lane::kNormal);  // queued: that version was a PV's
  loop_->Enqueue("d", Lane::kNormal);
  ASSERT_TRUE(sync_.AwaitFinished("d", 1));
  Stop();
  EXPECT_THAT(sync_.Order(), ElementsAre("a", "b", "d"));
}

TEST_F(ReconcileLoopTest, RequeueWithBackoffDoublesUpToItsCapAndDoneForgetsIt) {
  MakeLoop(1);
  AnswerOnReconcile("a", Action::RequeueWithBackoff());
  const base::Clock::TimePoint start = clock_.Now();
  loop_->Enqueue("a", Lane::kNormal);
  Run();
  base::Clock::TimePoint next = start;
  size_t reconciles = 1;
  for (auto cadence : {2s, 4s, 8s, 8s}) {
    ASSERT_TRUE(sync_.AwaitFinished("a", reconciles));
    next += cadence;
    ASSERT_TRUE(clock_.AwaitSleeperDeadlines({next}, kHandOffTimeout)) << "requeue " << reconciles;
    // The reconcile this timer brings answers Done.
    if (reconciles == 4) AnswerOnReconcile("a", Action::Done());
    clock_.Advance(cadence);
    ++reconciles;
  }
  ASSERT_TRUE(sync_.AwaitFinished("a", reconciles));
  // Done forgot the cadence: the next poll starts at 2 s again.
  AnswerOnReconcile("a", Action::RequeueWithBackoff());
  loop_->Enqueue("a", Lane::kNormal);
  ASSERT_TRUE(sync_.AwaitFinished("a", reconciles + 1));
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({next + 2s}, kHandOffTimeout));
  Stop();
  EXPECT_THAT(sync_.StartTimes("a"),
              ElementsAre(start, start + 2s, start + 6s, start + 14s, start + 22s, start + 22s));
}

TEST_F(ReconcileLoopTest, ErrorsNeitherResetNorAdvanceTheRequeueCadence) {
  MakeLoop(1, 1s, 1s);
  AnswerOnReconcile("a", Action::RequeueWithBackoff());
  const base::Clock::TimePoint start = clock_.Now();
  loop_->Enqueue("a", Lane::kNormal);
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 2s}, kHandOffTimeout));
  sync_.Fail("a", 1);
  clock_.Advance(2s);
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));  // fails: the error backoff, 1 s
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 3s}, kHandOffTimeout));
  clock_.Advance(1s);
  ASSERT_TRUE(sync_.AwaitFinished("a", 3));  // the cadence goes on at its second step, 4 s
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 7s}, kHandOffTimeout));
  Stop();
}

TEST_F(ReconcileLoopTest, RequeueAfterComesBackAfterTheDelay) {
  MakeLoop(1);
  AnswerOnReconcile("a", Action::RequeueAfter(90s));
  const base::Clock::TimePoint start = clock_.Now();
  loop_->Enqueue("a", Lane::kNormal);
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  AnswerOnReconcile("a", Action::Done());
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 90s}, kHandOffTimeout));
  clock_.Advance(90s);
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  Stop();
  EXPECT_THAT(sync_.StartTimes("a"), ElementsAre(start, start + 90s));
}

}  // namespace
}  // namespace kube
