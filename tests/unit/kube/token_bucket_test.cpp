#include "kube/client/token_bucket.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <semaphore>
#include <stop_token>
#include <thread>
#include <vector>

#include "base/clock.h"

namespace kube {
namespace {

using namespace std::chrono_literals;

TEST(TokenBucketTest, BurstThenRefillAtQps) {
  base::FakeClock clock;
  TokenBucket bucket(10, 3, clock);
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_FALSE(bucket.TryAccept());

  clock.Advance(99ms);
  EXPECT_FALSE(bucket.TryAccept());
  clock.Advance(1ms);
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_FALSE(bucket.TryAccept());
}

TEST(TokenBucketTest, RefillIsCappedAtBurst) {
  base::FakeClock clock;
  TokenBucket bucket(10, 2, clock);
  clock.Advance(1h);
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_FALSE(bucket.TryAccept());
}

TEST(TokenBucketTest, BurstBelowOneIsOne) {
  base::FakeClock clock;
  TokenBucket bucket(10, 0, clock);
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_FALSE(bucket.TryAccept());
}

TEST(TokenBucketTest, WaitReturnsAtOnceWhileBurstLasts) {
  base::FakeClock clock;
  TokenBucket bucket(1, 2, clock);
  EXPECT_TRUE(bucket.Wait({}));
  EXPECT_TRUE(bucket.Wait({}));
  EXPECT_EQ(clock.Sleepers(), 0);
  EXPECT_FALSE(bucket.TryAccept());
}

TEST(TokenBucketTest, WaitersAreServedOnePerInterval) {
  base::FakeClock clock;
  TokenBucket bucket(10, 1, clock);
  ASSERT_TRUE(bucket.Wait({}));

  std::counting_semaphore<3> served(0);
  std::vector<std::jthread> waiters;
  for (int i = 0; i < 3; ++i) {
    waiters.emplace_back([&] {
      if (bucket.Wait({})) served.release();
    });
  }
  // Each waiter sleeps until its own token is due, one interval after the last.
  const base::Clock::TimePoint start = clock.Now();
  ASSERT_TRUE(clock.AwaitSleeperDeadlines({start + 100ms, start + 200ms, start + 300ms}, 5s));
  EXPECT_FALSE(bucket.TryAccept()) << "reserved tokens belong to the waiters";

  for (int round = 1; round <= 3; ++round) {
    clock.Advance(100ms);
    ASSERT_TRUE(served.try_acquire_for(5s)) << "round " << round;
  }
}

TEST(TokenBucketTest, StopUnblocksWaitAndReturnsItsToken) {
  base::FakeClock clock;
  TokenBucket bucket(10, 1, clock);
  ASSERT_TRUE(bucket.TryAccept());

  std::stop_source stop;
  auto waited = std::async(std::launch::async, [&] { return bucket.Wait(stop.get_token()); });
  clock.AwaitSleepers(1);
  stop.request_stop();
  ASSERT_EQ(waited.wait_for(5s), std::future_status::ready);
  EXPECT_FALSE(waited.get());

  // The cancelled reservation gave its token back: one refill interval later
  // exactly one token is available.
  clock.Advance(100ms);
  EXPECT_TRUE(bucket.TryAccept());
  EXPECT_FALSE(bucket.TryAccept());
}

TEST(TokenBucketTest, StoppedWaitTakesNoToken) {
  base::FakeClock clock;
  TokenBucket bucket(10, 1, clock);
  std::stop_source stop;
  stop.request_stop();
  EXPECT_FALSE(bucket.Wait(stop.get_token()));
  EXPECT_TRUE(bucket.TryAccept());
}

TEST(TokenBucketTest, NonPositiveQpsIsUnlimited) {
  base::FakeClock clock;
  for (double qps : {0.0, -1.0}) {
    TokenBucket bucket(qps, 0, clock);
    for (int i = 0; i < 1000; ++i) {
      ASSERT_TRUE(bucket.TryAccept()) << "qps " << qps << " request " << i;
      ASSERT_TRUE(bucket.Wait({})) << "qps " << qps << " request " << i;
    }
    EXPECT_EQ(clock.Sleepers(), 0);
    std::stop_source stop;
    stop.request_stop();
    EXPECT_FALSE(bucket.Wait(stop.get_token()));
  }
}

}  // namespace
}  // namespace kube
