// component/loop_options.h and component/run_environment.h: the loop flags as
// a binary's controller loop takes them, and a real process's environment.
#include "component/loop_options.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>

#include "component/run_environment.h"

namespace component {
namespace {

using namespace std::chrono_literals;

TEST(LoopOptionsFrom, WholeMillisecondsAndNoWorkerBelowOne) {
  const RetryIntervalOptions retry{.retry_interval_start = 1500us,
                                   .retry_interval_max = std::chrono::minutes(2)};
  const LoopOptions loop = LoopOptionsFrom(4, retry, std::chrono::minutes(15));
  EXPECT_EQ(loop.worker_threads, 4u);
  EXPECT_EQ(loop.retry_interval_start, 1ms);
  EXPECT_EQ(loop.retry_interval_max, 120000ms);
  EXPECT_EQ(loop.resync_period, 900000ms);
  EXPECT_EQ(LoopOptionsFrom(0, retry, 0s).worker_threads, 0u);
  EXPECT_EQ(LoopOptionsFrom(-3, retry, 0s).worker_threads, 0u);
  EXPECT_EQ(LoopOptionsFrom(-3, retry, 0s).resync_period, 0ms);
}

TEST(ProcessEnvironment, TerminationLogFromTheNamedVariableOnlyWhenSet) {
  constexpr char kVariable[] = "COMPONENT_TEST_TERMINATION_LOG";
  ::unsetenv(kVariable);
  EXPECT_EQ(ProcessEnvironment(kVariable).termination_log_path, "/dev/termination-log");
  ::setenv(kVariable, "", 1);
  EXPECT_EQ(ProcessEnvironment(kVariable).termination_log_path, "/dev/termination-log");
  ::setenv(kVariable, "/tmp/termination-log", 1);
  const RunEnvironment env = ProcessEnvironment(kVariable);
  EXPECT_EQ(env.termination_log_path, "/tmp/termination-log");
  EXPECT_TRUE(env.handle_signals);
  ::unsetenv(kVariable);
}

}  // namespace
}  // namespace component
