#include "kube/runtime/rate_limiter.h"

#include <gtest/gtest.h>

#include <chrono>

namespace kube {
namespace {

using std::chrono::milliseconds;

TEST(ItemExponentialRateLimiterTest, DoublesPerFailureUpToMax) {
  ItemExponentialRateLimiter limiter(milliseconds(5), milliseconds(30));
  EXPECT_EQ(limiter.When("a"), milliseconds(5));
  EXPECT_EQ(limiter.When("a"), milliseconds(10));
  EXPECT_EQ(limiter.When("a"), milliseconds(20));
  EXPECT_EQ(limiter.When("a"), milliseconds(30));
  EXPECT_EQ(limiter.When("a"), milliseconds(30));
}

TEST(ItemExponentialRateLimiterTest, ManyFailuresStayAtMaxWithoutOverflow) {
  ItemExponentialRateLimiter limiter(milliseconds(1), std::chrono::hours(1));
  for (int i = 0; i < 5000; ++i) {
    auto delay = limiter.When("a");
    ASSERT_GT(delay, milliseconds(0)) << "failure " << i;
    ASSERT_LE(delay, std::chrono::hours(1)) << "failure " << i;
  }
  EXPECT_EQ(limiter.When("a"), std::chrono::hours(1));
  EXPECT_EQ(limiter.NumRequeues("a"), 5001);
}

TEST(ItemExponentialRateLimiterTest, KeysBackOffIndependently) {
  ItemExponentialRateLimiter limiter(milliseconds(1), milliseconds(1000));
  limiter.When("a");
  limiter.When("a");
  EXPECT_EQ(limiter.When("b"), milliseconds(1));
  EXPECT_EQ(limiter.When("a"), milliseconds(4));
}

TEST(ItemExponentialRateLimiterTest, NumRequeuesCountsWhenCalls) {
  ItemExponentialRateLimiter limiter(milliseconds(1), milliseconds(1000));
  EXPECT_EQ(limiter.NumRequeues("a"), 0);
  limiter.When("a");
  limiter.When("a");
  EXPECT_EQ(limiter.NumRequeues("a"), 2);
  EXPECT_EQ(limiter.NumRequeues("b"), 0);
}

TEST(ItemExponentialRateLimiterTest, ForgetRestartsFromBase) {
  ItemExponentialRateLimiter limiter(milliseconds(1), milliseconds(1000));
  limiter.When("a");
  limiter.When("a");
  limiter.When("b");
  limiter.Forget("a");
  EXPECT_EQ(limiter.NumRequeues("a"), 0);
  EXPECT_EQ(limiter.When("a"), milliseconds(1));
  EXPECT_EQ(limiter.NumRequeues("b"), 1);
}

}  // namespace
}  // namespace kube
