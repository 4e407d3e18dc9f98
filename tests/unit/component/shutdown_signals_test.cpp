// docs/attacher.md §7: the first SIGTERM/SIGINT stops gracefully, a second one
// ends the process at once with exit 1. Signals go to the whole process, so
// each case runs in a death-test child of its own.
#include "component/shutdown_signals.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>

#include "tests/support/thread_stats.h"

namespace component {
namespace {

// Waits up to 5 s for `stop` to be requested.
bool AwaitStop(const std::stop_source& stop) {
  for (int i = 0; i < 500 && !stop.stop_requested(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return stop.stop_requested();
}

class ShutdownSignalsDeathTest : public ::testing::Test {
 protected:
  ShutdownSignalsDeathTest() { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(ShutdownSignalsDeathTest, FirstSignalRequestsStop) {
  EXPECT_EXIT(
      {
        std::stop_source stop;
        ShutdownSignals signals(stop);
        kill(getpid(), SIGTERM);
        std::_Exit(AwaitStop(stop) ? 7 : 3);
      },
      ::testing::ExitedWithCode(7), "");
}

TEST_F(ShutdownSignalsDeathTest, SigintToo) {
  EXPECT_EXIT(
      {
        std::stop_source stop;
        ShutdownSignals signals(stop);
        kill(getpid(), SIGINT);
        std::_Exit(AwaitStop(stop) ? 7 : 3);
      },
      ::testing::ExitedWithCode(7), "");
}

TEST_F(ShutdownSignalsDeathTest, SecondSignalExitsOneAtOnce) {
  EXPECT_EXIT(
      {
        std::stop_source stop;
        ShutdownSignals signals(stop);
        kill(getpid(), SIGTERM);
        if (!AwaitStop(stop)) std::_Exit(3);
        kill(getpid(), SIGTERM);
        std::this_thread::sleep_for(std::chrono::seconds(5));
        std::_Exit(4);
      },
      ::testing::ExitedWithCode(1), "second SIGTERM or SIGINT");
}

TEST(ShutdownSignalsTest, DestructorRestoresTheSignalMask) {
  sigset_t before, after;
  pthread_sigmask(SIG_SETMASK, nullptr, &before);
  {
    std::stop_source stop;
    ShutdownSignals signals(stop);
    sigset_t during;
    pthread_sigmask(SIG_SETMASK, nullptr, &during);
    EXPECT_TRUE(sigismember(&during, SIGTERM));
    EXPECT_TRUE(sigismember(&during, SIGINT));
  }
  pthread_sigmask(SIG_SETMASK, nullptr, &after);
  EXPECT_EQ(sigismember(&after, SIGTERM), sigismember(&before, SIGTERM));
  EXPECT_EQ(sigismember(&after, SIGINT), sigismember(&before, SIGINT));
}

// An idle process must not wake up to look for signals: the watcher thread
// sleeps until one arrives (or the destructor ends it).
TEST(ShutdownSignalsTest, WatcherSleepsUntilASignalArrives) {
  using testsupport::ThreadIds;
  using testsupport::VoluntarySwitches;
  const std::set<std::string> before = ThreadIds();
  std::stop_source stop;
  ShutdownSignals signals(stop);
  std::string watcher;
  for (const auto& tid : ThreadIds()) {
    if (!before.contains(tid)) watcher = tid;
  }
  ASSERT_FALSE(watcher.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the watcher reaches its wait
  const long settled = VoluntarySwitches(watcher);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(VoluntarySwitches(watcher), settled);
  EXPECT_FALSE(stop.stop_requested());
}

}  // namespace
}  // namespace component
