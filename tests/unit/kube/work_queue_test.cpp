#include "kube/runtime/work_queue.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "tests/support/heap_holes.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::Optional;

constexpr std::chrono::milliseconds kRetryBase = 1s;
constexpr std::chrono::milliseconds kRetryMax = 4s;

// Get() for a key another thread (the timer) is about to queue: fails the test
// and unblocks, instead of hanging, if none comes within 5 s.
std::optional<std::string> GetWithin5s(WorkQueue& queue) {
  auto got = std::async(std::launch::async, [&] { return queue.Get(); });
  if (got.wait_for(5s) == std::future_status::timeout) {
    ADD_FAILURE() << "no key was handed out within 5 s";
    queue.ShutDown();
  }
  return got.get();
}

// Waits up to 5 s for the timer thread to make `len` keys ready.
void AwaitLen(const WorkQueue& queue, size_t len) {
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (queue.Len() < len && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_EQ(queue.Len(), len);
}

class WorkQueueTest : public ::testing::Test {
 protected:
  base::FakeClock clock_;
  WorkQueue queue_{"test-queue", clock_, kRetryBase, kRetryMax};
};

TEST_F(WorkQueueTest, Name) { EXPECT_EQ(queue_.name(), "test-queue"); }

TEST_F(WorkQueueTest, WaitingKeyIsQueuedOnce) {
  queue_.Add("a");
  queue_.Add("b");
  queue_.Add("a");
  EXPECT_EQ(queue_.Len(), 2u);
  EXPECT_THAT(queue_.Get(), Optional(std::string("a")));
  EXPECT_THAT(queue_.Get(), Optional(std::string("b")));
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, HandsOutKeysInAddOrder) {
  for (const char* key : {"c", "a", "b"}) queue_.Add(key);
  EXPECT_THAT(queue_.Get(), Optional(std::string("c")));
  EXPECT_THAT(queue_.Get(), Optional(std::string("a")));
  EXPECT_THAT(queue_.Get(), Optional(std::string("b")));
}

TEST_F(WorkQueueTest, KeyAddedWhileProcessingIsRequeuedByDone) {
  queue_.Add("a");
  ASSERT_THAT(queue_.Get(), Optional(std::string("a")));
  queue_.Add("a");
  queue_.Add("a");
  EXPECT_EQ(queue_.Len(), 0u) << "a key in flight must not be handed out again";

  queue_.Done("a");
  EXPECT_EQ(queue_.Len(), 1u);
  EXPECT_THAT(queue_.Get(), Optional(std::string("a")));
  queue_.Done("a");
  EXPECT_EQ(queue_.Len(), 0u);
}

constexpr WorkQueue::Lane kUrgent = WorkQueue::Lane::kUrgent;
constexpr WorkQueue::Lane kNormal = WorkQueue::Lane::kNormal;

// Hands out `n` keys, calling Done on each.
std::vector<std::string> GetAndDone(WorkQueue& queue, int n) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) {
    std::optional<std::string> key = queue.Get();
    if (!key) break;
    queue.Done(*key);
    keys.push_back(*key);
  }
  return keys;
}

TEST_F(WorkQueueTest, UrgentKeysAreHandedOutBeforeNormalOnesEachLaneInAddOrder) {
  queue_.Add("n1");
  queue_.Add("u1", kUrgent);
  queue_.Add("n2", kNormal);
  queue_.Add("u2", kUrgent);
  EXPECT_EQ(queue_.Len(), 4u);
  EXPECT_THAT(GetAndDone(queue_, 4), ElementsAre("u1", "u2", "n1", "n2"));
}

TEST_F(WorkQueueTest, NormalKeyIsHandedOutAfterEveryBurstOfUrgentKeys) {
  static_assert(WorkQueue::kUrgentBurst == 3);
  for (const char* key : {"n1", "n2"}) queue_.Add(key);
  for (const char* key : {"u1", "u2", "u3", "u4", "u5", "u6", "u7"}) queue_.Add(key, kUrgent);
  EXPECT_THAT(GetAndDone(queue_, 9),
              ElementsAre("u1", "u2", "u3", "n1", "u4", "u5", "u6", "n2", "u7"));
}

TEST_F(WorkQueueTest, UrgentKeysHandedOutWhileNoNormalKeyWaitedDoNotCountTowardsTheBurst) {
  for (const char* key : {"u1", "u2", "u3"}) queue_.Add(key, kUrgent);
  EXPECT_THAT(GetAndDone(queue_, 2), ElementsAre("u1", "u2"));
  queue_.Add("n1");
  for (const char* key : {"u4", "u5"}) queue_.Add(key, kUrgent);
  EXPECT_THAT(GetAndDone(queue_, 4), ElementsAre("u3", "u4", "u5", "n1"));
}

TEST_F(WorkQueueTest, UrgentAddMovesAWaitingNormalKeyToTheUrgentLaneOnce) {
  for (const char* key : {"n1", "a", "n2"}) queue_.Add(key);
  queue_.Add("u1", kUrgent);
  queue_.Add("a", kUrgent);
  queue_.Add("a", kUrgent);
  EXPECT_EQ(queue_.Len(), 4u);
  EXPECT_THAT(GetAndDone(queue_, 4), ElementsAre("u1", "a", "n1", "n2"));
  EXPECT_EQ(queue_.Len(), 0u);
}

// The lanes are threaded through the queue's entries: promoting the first,
// the last and a middle key of the normal lane keeps both lanes in order.
TEST_F(WorkQueueTest, UrgentAddsMoveKeysFromAnyPlaceInTheNormalLane) {
  for (const char* key : {"first", "n1", "middle", "n2", "last"}) queue_.Add(key);
  for (const char* key : {"middle", "last", "first"}) queue_.Add(key, kUrgent);
  EXPECT_EQ(queue_.Len(), 5u);
  EXPECT_THAT(GetAndDone(queue_, 5), ElementsAre("middle", "last", "first", "n1", "n2"));
  queue_.Add("again");
  queue_.Add("again", kUrgent);
  EXPECT_THAT(GetAndDone(queue_, 1), ElementsAre("again"));
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, NormalAddLeavesAnUrgentKeyInTheUrgentLane) {
  queue_.Add("n1");
  queue_.Add("a", kUrgent);
  queue_.Add("a");
  EXPECT_EQ(queue_.Len(), 2u);
  EXPECT_THAT(GetAndDone(queue_, 2), ElementsAre("a", "n1"));
}

TEST_F(WorkQueueTest, KeyReAddedWhileProcessingIsRequeuedByDoneInItsMostUrgentLane) {
  for (const char* key : {"a", "b"}) queue_.Add(key);
  ASSERT_THAT(queue_.Get(), Optional(std::string("a")));
  ASSERT_THAT(queue_.Get(), Optional(std::string("b")));
  queue_.Add("n1");
  queue_.Add("a");
  queue_.Add("a", kUrgent);  // promotes the dirty key in flight
  queue_.Add("b");
  EXPECT_EQ(queue_.Len(), 1u);

  queue_.Done("b");
  queue_.Done("a");
  EXPECT_EQ(queue_.Len(), 3u);
  EXPECT_THAT(GetAndDone(queue_, 3), ElementsAre("a", "n1", "b"));
}

TEST_F(WorkQueueTest, DelayedKeyIsAddedToItsLaneAndAPendingDelayKeepsTheMostUrgentLane) {
  queue_.Add("n1");
  queue_.AddAfter("a", 1s, kUrgent);
  queue_.AddAfter("b", 1s);
  queue_.AddAfter("b", 2s, kUrgent);  // later deadline ignored, lane kept
  clock_.AwaitSleepers(1);
  clock_.Advance(1s);
  AwaitLen(queue_, 3);
  EXPECT_THAT(GetAndDone(queue_, 3), ElementsAre("a", "b", "n1"));
}

TEST_F(WorkQueueTest, AddRateLimitedRetriesInTheGivenLane) {
  queue_.Add("n1");
  queue_.AddRateLimited("a", kUrgent);
  clock_.AwaitSleepers(1);
  clock_.Advance(1s);
  AwaitLen(queue_, 2);
  EXPECT_THAT(GetAndDone(queue_, 2), ElementsAre("a", "n1"));
}

TEST_F(WorkQueueTest, DoneForKeyNotInFlightIsIgnored) {
  queue_.Add("a");
  queue_.Done("a");
  queue_.Done("b");
  EXPECT_EQ(queue_.Len(), 1u);
}

TEST_F(WorkQueueTest, AddAfterFiresOnlyOnceTheClockPassesTheDelay) {
  const base::Clock::TimePoint start = clock_.Now();
  queue_.AddAfter("a", 1s);
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 1s}, 5s));
  EXPECT_EQ(queue_.Len(), 0u);
  clock_.Advance(1s);
  EXPECT_THAT(GetWithin5s(queue_), Optional(std::string("a")));
}

TEST_F(WorkQueueTest, AddAfterWithoutDelayAddsAtOnce) {
  queue_.AddAfter("a", 0s);
  queue_.AddAfter("b", -1s);
  EXPECT_EQ(queue_.Len(), 2u);
}

TEST_F(WorkQueueTest, EarlierDeadlineForTheSameKeyWins) {
  const base::Clock::TimePoint start = clock_.Now();
  queue_.AddAfter("a", 10s);
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 10s}, 5s));
  queue_.AddAfter("a", 1s);
  queue_.AddAfter("a", 5s);  // later than the pending deadline: ignored
  // The timer thread is woken and sleeps again, now until the earlier deadline.
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 1s}, 5s));
  EXPECT_EQ(queue_.Len(), 0u);
  clock_.Advance(1s);
  ASSERT_THAT(GetWithin5s(queue_), Optional(std::string("a")));
  queue_.Done("a");

  // Had the 5 s or 10 s deadline survived, "a" would fire before "b" (11 s).
  queue_.AddAfter("b", 10s);
  clock_.Advance(10s);
  EXPECT_THAT(GetWithin5s(queue_), Optional(std::string("b")));
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, AddRateLimitedBacksOffExponentiallyUpToMax) {
  const std::chrono::milliseconds expected[] = {1s, 2s, 4s, 4s};
  int failures = 0;
  for (auto delay : expected) {
    queue_.AddRateLimited("a");
    ++failures;
    EXPECT_EQ(queue_.NumRequeues("a"), failures);
    clock_.AwaitSleepers(1);
    clock_.Advance(delay - 1ms);
    EXPECT_EQ(queue_.Len(), 0u) << "failure " << failures;
    clock_.Advance(1ms);
    ASSERT_THAT(GetWithin5s(queue_), Optional(std::string("a"))) << "failure " << failures;
    queue_.Done("a");
  }
}

// After an API server restart: failing keys come back at once, their backoff
// reset, and the timers they waited on fire nothing more.
TEST_F(WorkQueueTest, RetryFailedNowAddsFailingKeysAtOnceResetsTheirBackoffAndDropsTheirTimers) {
  const base::Clock::TimePoint start = clock_.Now();
  queue_.AddRateLimited("a");
  queue_.AddRateLimited("a");
  queue_.AddRateLimited("b", kUrgent);
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 1s}, 5s));
  EXPECT_EQ(queue_.Len(), 0u);

  queue_.RetryFailedNow([](const std::string& key) { return key == "a" ? kNormal : kUrgent; });
  EXPECT_EQ(queue_.Len(), 2u);
  EXPECT_THAT(GetAndDone(queue_, 2), ElementsAre("b", "a"));
  EXPECT_EQ(queue_.NumRequeues("a"), 0);
  EXPECT_EQ(queue_.NumRequeues("b"), 0);
  // The next failure backs off from the base delay; no timer of before is left.
  queue_.AddRateLimited("a");
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 1s}, 5s));
  clock_.Advance(1s);
  EXPECT_THAT(GetAndDone(queue_, 1), ElementsAre("a"));
  clock_.Advance(10s);
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({}, 5s));
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, RetryFailedNowLeavesKeysWithoutFailuresAlone) {
  queue_.AddAfter("polled", 5s);
  queue_.RetryFailedNow([](const std::string&) { return kNormal; });
  EXPECT_EQ(queue_.Len(), 0u);
}

TEST_F(WorkQueueTest, ForgetResetsBackoff) {
  queue_.AddRateLimited("a");
  queue_.AddRateLimited("a");
  queue_.AddRateLimited("b");
  queue_.Forget("a");
  EXPECT_EQ(queue_.NumRequeues("a"), 0);
  EXPECT_EQ(queue_.NumRequeues("b"), 1);

  // Forget does not cancel the pending retry (due at 1 s, the earlier deadline);
  // the next failure backs off from the base delay again.
  clock_.Advance(1s);
  ASSERT_THAT(GetWithin5s(queue_), Optional(std::string("a")));
  ASSERT_THAT(GetWithin5s(queue_), Optional(std::string("b")));
  queue_.Done("a");
  queue_.AddRateLimited("a");
  clock_.AwaitSleepers(1);
  clock_.Advance(999ms);
  EXPECT_EQ(queue_.Len(), 0u);
  clock_.Advance(1ms);
  EXPECT_THAT(GetWithin5s(queue_), Optional(std::string("a")));
}

TEST_F(WorkQueueTest, ShutDownWakesBlockedGetAndRejectsAdds) {
  auto got = std::async(std::launch::async, [&] { return queue_.Get(); });
  EXPECT_EQ(got.wait_for(20ms), std::future_status::timeout) << "Get() must block when empty";
  queue_.ShutDown();
  ASSERT_EQ(got.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(got.get(), std::nullopt);

  queue_.Add("a");
  queue_.AddAfter("b", 0s);
  queue_.AddRateLimited("c");
  EXPECT_EQ(queue_.Len(), 0u);
  EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST_F(WorkQueueTest, ShutDownStopsHandingOutQueuedKeys) {
  queue_.Add("a");
  queue_.ShutDown();
  EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST_F(WorkQueueTest, ShutDownWithDrainWaitsForKeysInFlight) {
  queue_.Add("a");
  queue_.Add("b");
  ASSERT_THAT(queue_.Get(), Optional(std::string("a")));

  auto drained = std::async(std::launch::async, [&] { queue_.ShutDownWithDrain(); });
  EXPECT_EQ(drained.wait_for(20ms), std::future_status::timeout) << "returned before Done";
  queue_.Done("a");
  ASSERT_EQ(drained.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(queue_.Get(), std::nullopt) << "queued keys are not handed out after shutdown";
}

TEST_F(WorkQueueTest, ShutDownWithDrainReturnsAtOnceWhenIdle) {
  queue_.Add("a");
  queue_.ShutDownWithDrain();
  EXPECT_EQ(queue_.Get(), std::nullopt);
}

TEST(WorkQueueLifetimeTest, DestructorStopsPendingTimer) {
  base::FakeClock clock;
  {
    WorkQueue queue("q", clock, kRetryBase, kRetryMax);
    queue.AddAfter("a", 1h);
    clock.AwaitSleepers(1);
  }
  EXPECT_EQ(clock.Sleepers(), 0);
}

// Records the hook calls as text, e.g. "depth 2".
class RecordingMetrics : public WorkQueueMetrics {
 public:
  void OnAdd() override { Record("add"); }
  void OnDepth(size_t depth) override { Record(fmt::format("depth {}", depth)); }
  void OnQueueLatency(double seconds) override { Record(fmt::format("latency {}", seconds)); }
  void OnWorkDuration(double seconds) override { Record(fmt::format("work {}", seconds)); }
  void OnRetry() override { Record("retry"); }

  // Returns and clears the calls so far.
  std::vector<std::string> Take() {
    std::lock_guard lock(mu_);
    return std::exchange(calls_, {});
  }

 private:
  void Record(std::string call) {
    std::lock_guard lock(mu_);
    calls_.push_back(std::move(call));
  }

  std::mutex mu_;  // the timer thread records too
  std::vector<std::string> calls_;
};

TEST(WorkQueueMetricsTest, HooksSeeAddsDepthAndLatencies) {
  base::FakeClock clock;
  RecordingMetrics metrics;
  WorkQueue queue("q", clock, kRetryBase, kRetryMax, &metrics);

  queue.Add("a");
  queue.Add("b");
  queue.Add("a");  // deduplicated: not an add
  EXPECT_THAT(metrics.Take(), ElementsAre("add", "depth 1", "add", "depth 2"));

  clock.Advance(2s);
  ASSERT_THAT(queue.Get(), Optional(std::string("a")));
  EXPECT_THAT(metrics.Take(), ElementsAre("latency 2", "depth 1"));

  queue.Add("a");  // dirty while in flight: counted in depth
  clock.Advance(3s);
  queue.Done("a");
  EXPECT_THAT(metrics.Take(), ElementsAre("add", "depth 2", "work 3"));

  ASSERT_THAT(queue.Get(), Optional(std::string("b")));
  ASSERT_THAT(queue.Get(), Optional(std::string("a")));
  EXPECT_THAT(metrics.Take(), ElementsAre("latency 5", "depth 1", "latency 3", "depth 0"));

  // Latency of a delayed key counts from when it became ready.
  queue.AddRateLimited("c");
  EXPECT_THAT(metrics.Take(), ElementsAre("retry"));
  clock.Advance(1s);
  ASSERT_THAT(GetWithin5s(queue), Optional(std::string("c")));
  EXPECT_THAT(metrics.Take(), ElementsAre("add", "depth 1", "latency 0", "depth 0"));
}

TEST(WorkQueueMetricsTest, DepthCountsBothLanesAndPromotionIsNoAdd) {
  base::FakeClock clock;
  RecordingMetrics metrics;
  WorkQueue queue("q", clock, kRetryBase, kRetryMax, &metrics);

  queue.Add("n");
  queue.Add("u", WorkQueue::Lane::kUrgent);
  queue.Add("n", WorkQueue::Lane::kUrgent);  // promoted, still one waiting key
  EXPECT_THAT(metrics.Take(), ElementsAre("add", "depth 1", "add", "depth 2"));

  clock.Advance(2s);
  ASSERT_THAT(queue.Get(), Optional(std::string("u")));
  ASSERT_THAT(queue.Get(), Optional(std::string("n")));
  EXPECT_THAT(metrics.Take(), ElementsAre("latency 2", "depth 1", "latency 2", "depth 0"));
}

TEST_F(WorkQueueTest, InFlightGaugesMeasureProcessingTime) {
  EXPECT_EQ(queue_.UnfinishedWorkSeconds(), 0);
  EXPECT_EQ(queue_.LongestRunningProcessorSeconds(), 0);
  queue_.Add("a");
  queue_.Add("b");
  ASSERT_THAT(queue_.Get(), Optional(std::string("a")));
  clock_.Advance(2s);
  ASSERT_THAT(queue_.Get(), Optional(std::string("b")));
  clock_.Advance(1s);
  EXPECT_EQ(queue_.UnfinishedWorkSeconds(), 4);
  EXPECT_EQ(queue_.LongestRunningProcessorSeconds(), 3);

  queue_.Done("a");
  EXPECT_EQ(queue_.UnfinishedWorkSeconds(), 1);
  EXPECT_EQ(queue_.LongestRunningProcessorSeconds(), 1);
  queue_.Done("b");
  EXPECT_EQ(queue_.UnfinishedWorkSeconds(), 0);
  EXPECT_EQ(queue_.LongestRunningProcessorSeconds(), 0);
}

// Real threads: workers must never hold the same key at once, and every
// update (a version bumped before each Add) must be seen by some worker.
TEST_F(WorkQueueTest, ConcurrentWorkersNeverShareAKeyAndLoseNoUpdate) {
  constexpr int kKeys = 50;
  constexpr int kVersions = 100;
  constexpr int kWorkers = 4;

  std::mutex mu;
  std::condition_variable progressed;
  std::set<std::string> in_flight;
  std::map<std::string, int> latest;  // version last published per key
  std::map<std::string, int> seen;    // version a worker last started on
  bool overlap = false;

  std::vector<std::jthread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&] {
      while (std::optional<std::string> key = queue_.Get()) {
        {
          std::lock_guard lock(mu);
          if (!in_flight.insert(*key).second) overlap = true;
          seen[*key] = latest[*key];
        }
        std::this_thread::yield();
        {
          std::lock_guard lock(mu);
          in_flight.erase(*key);
        }
        progressed.notify_all();
        queue_.Done(*key);
      }
    });
  }

  for (int version = 1; version <= kVersions; ++version) {
    for (int k = 0; k < kKeys; ++k) {
      std::string key = "key-" + std::to_string(k);
      {
        std::lock_guard lock(mu);
        latest[key] = version;
      }
      queue_.Add(key);
    }
  }

  {
    std::unique_lock lock(mu);
    bool all_seen = progressed.wait_for(lock, 5s, [&] {
      if (seen.size() != kKeys) return false;
      for (const auto& [key, version] : seen) {
        if (version != kVersions) return false;
      }
      return true;
    });
    EXPECT_TRUE(all_seen) << "some key's last update was never processed";
    EXPECT_FALSE(overlap) << "two workers held the same key at once";
  }
  queue_.ShutDown();
}

#if CSI_TEST_HEAP_TRIM
// Hands out and finishes every waiting key; returns how many there were.
size_t DrainAll(WorkQueue& queue) {
  size_t drained = 0;
  for (; queue.Len() > 0; ++drained) {
    auto key = queue.Get();
    if (!key) break;
    queue.Done(*key);
  }
  return drained;
}

TEST_F(WorkQueueTest, RunningEmptyAfterALargeBacklogHandsFreeHeapMemoryBack) {
  testsupport::HeapHoles holes(48 << 20);
  for (size_t i = 0; i < WorkQueue::kReleaseMemoryAfterBacklogOf; ++i) {
    queue_.Add(fmt::format("key-{}", i));
  }
  long before = testsupport::RssAnonKiB();
  ASSERT_EQ(DrainAll(queue_), WorkQueue::kReleaseMemoryAfterBacklogOf);
  long after = testsupport::RssAnonKiB();
  EXPECT_GT(before - after, holes.freed_kib() / 2)
      << "RssAnon " << before << " -> " << after << " KiB";
}

TEST_F(WorkQueueTest, RunningEmptyAfterASmallBacklogLeavesTheHeapAlone) {
  testsupport::HeapHoles holes(48 << 20);
  for (size_t i = 0; i + 1 < WorkQueue::kReleaseMemoryAfterBacklogOf; ++i) {
    queue_.Add(fmt::format("key-{}", i));
  }
  long before = testsupport::RssAnonKiB();
  ASSERT_EQ(DrainAll(queue_), WorkQueue::kReleaseMemoryAfterBacklogOf - 1);
  long after = testsupport::RssAnonKiB();
  EXPECT_LT(before - after, holes.freed_kib() / 4)
      << "RssAnon " << before << " -> " << after << " KiB";
}
#endif  // CSI_TEST_HEAP_TRIM

}  // namespace
}  // namespace kube
