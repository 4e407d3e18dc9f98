#include "kube/runtime/worker_pool.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

#include "base/clock.h"
#include "tests/support/hand_off.h"
#include "tests/support/scripted_sync.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using testsupport::kHandOffTimeout;
using Lane = WorkQueue::Lane;

class CountingMetrics final : public WorkQueueMetrics {
 public:
  void OnRetry() override { ++retries; }
  std::atomic<int> retries{0};
};

class WorkerPoolTest : public ::testing::Test {
 protected:
  // Builds the pool; keys added before Run() wait for its workers.
  void MakePool(uint32_t workers, std::chrono::milliseconds retry_start = 1s,
                std::chrono::milliseconds retry_max = 4s, WorkerPool::RetryLane retry_lane = {}) {
    pool_.emplace(
        WorkerPoolOptions{.queue_name = "test-queue",
                          .kind = "Thing",
                          .workers = workers,
                          .retry_start = retry_start,
                          .retry_max = retry_max,
                          .metrics = &metrics_},
        clock_, [this](const std::string& key) { return sync_.Sync(key); }, std::move(retry_lane));
  }
  void Run() {
    runner_ = std::jthread([this] {
      pool_->Run(stop_.get_token());
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
  std::optional<WorkerPool> pool_;
  std::stop_source stop_;
  std::function<void()> on_run_returned_;  // called on the runner the moment Run returns
  std::jthread runner_;                    // last: joins before the rest goes
};

TEST_F(WorkerPoolTest, SyncsEveryKeyAndForgetsSuccess) {
  MakePool(2);
  pool_->queue().Add("a");
  pool_->queue().Add("b");
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  ASSERT_TRUE(sync_.AwaitFinished("b", 1));
  Stop();
  EXPECT_THAT(sync_.StartTimes("a"), ElementsAre(base::Clock::TimePoint{}));
  EXPECT_THAT(sync_.StartTimes("b"), ElementsAre(base::Clock::TimePoint{}));
  EXPECT_EQ(pool_->queue().name(), "test-queue");
  EXPECT_EQ(metrics_.retries, 0);
}

TEST_F(WorkerPoolTest, FailuresBackOffDoublingUpToTheCapAndSuccessForgetsThem) {
  MakePool(1, 1s, 4s);
  sync_.Fail("a", 4);
  const base::Clock::TimePoint start = clock_.Now();
  pool_->queue().Add("a");
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
  EXPECT_EQ(pool_->queue().NumRequeues("a"), 0);
}

TEST_F(WorkerPoolTest, UrgentKeysGoFirstAndRetriesTakeTheLaneRetryLanePicks) {
  // No backoff, so a retry is queued at once, behind or ahead of the rest.
  MakePool(1, 0ms, 0ms, [](const std::string& key) {
    return key == "retried-urgently" ? Lane::kUrgent : Lane::kNormal;
  });
  sync_.Fail("retried-urgently", 1);
  sync_.Fail("retried-normally", 1);
  pool_->queue().Add("retried-normally");
  pool_->queue().Add("retried-urgently");
  pool_->queue().Add("normal");
  pool_->queue().Add("urgent", Lane::kUrgent);
  Run();
  ASSERT_TRUE(sync_.AwaitFinished("retried-normally", 2));
  Stop();
  EXPECT_THAT(sync_.Order(), ElementsAre("urgent", "retried-normally", "retried-urgently",
                                         "retried-urgently", "normal", "retried-normally"));
}

TEST_F(WorkerPoolTest, StopDrainsTheSyncInFlightAndStartsNoQueuedOne) {
  int a_finished_at_return = -1;
  on_run_returned_ = [&] { a_finished_at_return = sync_.Finished("a"); };
  MakePool(1);
  sync_.Block("a");
  pool_->queue().Add("a");
  pool_->queue().Add("b");
  Run();
  ASSERT_TRUE(sync_.AwaitStarted("a", 1));
  // The queue stops taking work before request_stop() returns; Run must then
  // wait for "a", whenever it is released.
  stop_.request_stop();
  pool_->queue().Add("c");
  sync_.Release("a");
  runner_.join();
  EXPECT_EQ(a_finished_at_return, 1);
  EXPECT_THAT(sync_.Order(), ElementsAre("a"));
}

TEST_F(WorkerPoolTest, NeverHandsOneKeyToTwoWorkers) {
  MakePool(4);
  sync_.Block("a");
  pool_->queue().Add("a");
  Run();
  ASSERT_TRUE(sync_.AwaitStarted("a", 1));
  // Re-adds while "a" is in flight collapse into one later sync; the other
  // workers neither take "a" nor wait for it.
  for (int i = 0; i < 3; ++i) pool_->queue().Add("a");
  pool_->queue().Add("b");
  ASSERT_TRUE(sync_.AwaitFinished("b", 1));
  sync_.Release("a");
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  Stop();
  EXPECT_EQ(sync_.StartTimes("a").size(), 2u);
  EXPECT_EQ(sync_.MaxConcurrentSyncsOfOneKey(), 1);
}

}  // namespace
}  // namespace kube
