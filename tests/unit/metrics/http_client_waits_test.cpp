// Deadlines and eviction order of the HTTP endpoint's connections.
#include "metrics/http_client_waits.h"

#include <gtest/gtest.h>

namespace metrics {
namespace {

using namespace std::chrono_literals;

HttpServerLimits Limits() {
  HttpServerLimits limits;
  limits.header_timeout = 5s;
  limits.idle_timeout = 10s;
  limits.write_timeout = 20s;
  limits.linger_timeout = 2s;
  return limits;
}

const ClientWaits::TimePoint kStart{std::chrono::hours(1)};

TEST(ClientWaitsTest, EachKindOfWaitHasItsOwnTimeout) {
  ClientWaits waits(Limits());
  EXPECT_EQ(waits.NextDeadline(), std::nullopt);
  waits.Begin(1, ClientWait::kResponseRead, kStart);
  waits.Begin(2, ClientWait::kNextRequest, kStart);
  waits.Begin(3, ClientWait::kRequestHead, kStart);
  waits.Begin(4, ClientWait::kLinger, kStart + 1s);
  EXPECT_EQ(waits.NextDeadline(), kStart + 3s);
  EXPECT_EQ(waits.Expired(kStart + 3s - 1ms), std::vector<int>{});
  EXPECT_EQ(waits.Expired(kStart + 3s), std::vector<int>{4});
  EXPECT_EQ(waits.Expired(kStart + 5s), (std::vector<int>{3, 4}));
  waits.Forget(4);
  waits.Forget(3);
  EXPECT_EQ(waits.NextDeadline(), kStart + 10s);
  EXPECT_EQ(waits.Expired(kStart + 20s), (std::vector<int>{2, 1}));
}

TEST(ClientWaitsTest, OnlyANewWaitMovesTheDeadline) {
  ClientWaits waits(Limits());
  waits.Begin(1, ClientWait::kRequestHead, kStart);
  waits.Begin(2, ClientWait::kRequestHead, kStart + 1s);
  waits.Begin(1, ClientWait::kResponseRead, kStart + 2s);
  EXPECT_EQ(waits.NextDeadline(), kStart + 6s);
  waits.Begin(1, ClientWait::kRequestHead, kStart + 3s);
  EXPECT_EQ(waits.Expired(kStart + 7s), std::vector<int>{2});
  EXPECT_EQ(waits.Expired(kStart + 8s), (std::vector<int>{2, 1}));
}

TEST(ClientWaitsTest, EvictsLingeringThenLongestWaitingForARequestThenSlowReaders) {
  ClientWaits waits(Limits());
  EXPECT_EQ(waits.EvictionCandidate(), std::nullopt);
  waits.Begin(1, ClientWait::kResponseRead, kStart);
  waits.Begin(2, ClientWait::kRequestHead, kStart + 1s);
  waits.Begin(3, ClientWait::kNextRequest, kStart + 2s);
  waits.Begin(4, ClientWait::kRequestHead, kStart + 3s);
  waits.Begin(5, ClientWait::kLinger, kStart + 4s);
  waits.Begin(6, ClientWait::kResponseRead, kStart + 5s);
  for (int expected : {5, 2, 3, 4, 1, 6}) {
    ASSERT_EQ(waits.EvictionCandidate(), expected);
    waits.Forget(expected);
  }
  EXPECT_EQ(waits.EvictionCandidate(), std::nullopt);
}

TEST(ClientWaitsTest, AnIdleConnectionGoesBeforeAHalfRequestThatStartedLater) {
  ClientWaits waits(Limits());
  waits.Begin(1, ClientWait::kRequestHead, kStart + 1s);
  waits.Begin(2, ClientWait::kNextRequest, kStart);
  EXPECT_EQ(waits.EvictionCandidate(), 2);
}

}  // namespace
}  // namespace metrics
