#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "base/clock.h"

namespace base {
namespace {

using namespace std::chrono_literals;

TEST(FakeClockTest, SleepersWakeWhenTimePassesTheirDeadline) {
  FakeClock clock;
  const Clock::TimePoint start = clock.Now();
  std::jthread later([&] { EXPECT_TRUE(clock.SleepUntil(start + 2s, {})); });
  std::jthread sooner([&] { EXPECT_TRUE(clock.SleepFor(1s, {})); });
  ASSERT_TRUE(clock.AwaitSleeperDeadlines({start + 1s, start + 2s}, 5s));
  clock.Advance(1s);
  ASSERT_TRUE(clock.AwaitSleeperDeadlines({start + 2s}, 5s));
  clock.Advance(1s);
  ASSERT_TRUE(clock.AwaitSleeperDeadlines({}, 5s));
}

TEST(FakeClockTest, AwaitSleeperDeadlinesGivesUpOnOtherDeadlines) {
  FakeClock clock;
  std::stop_source stop;
  std::jthread sleeper([&] { EXPECT_FALSE(clock.SleepFor(1s, stop.get_token())); });
  ASSERT_TRUE(clock.AwaitSleeperDeadlines({clock.Now() + 1s}, 5s));
  EXPECT_FALSE(clock.AwaitSleeperDeadlines({clock.Now() + 2s}, 10ms));
  stop.request_stop();
}

}  // namespace
}  // namespace base
