#include "base/scheduling.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>

#include <cerrno>
#include <thread>

namespace base {
namespace {

// Each case runs on a thread of its own: the policy is per thread, and the
// test binary's other threads keep theirs.
int PolicyOfAThreadStartedBy(int (*setup)()) {
  int started_policy = -1;
  std::thread([&] {
    setup();
    std::thread([&] { started_policy = sched_getscheduler(0); }).join();
  }).join();
  return started_policy;
}

TEST(PreferBatchSchedulingTest, DefaultPolicyBecomesBatchForTheThreadAndThoseItStarts) {
  int returned = -1;
  std::thread([&] {
    ASSERT_EQ(sched_getscheduler(0), SCHED_OTHER);
    returned = PreferBatchScheduling();
    EXPECT_EQ(sched_getscheduler(0), SCHED_BATCH);
  }).join();
  EXPECT_EQ(returned, SCHED_BATCH);
  EXPECT_EQ(PolicyOfAThreadStartedBy(&PreferBatchScheduling), SCHED_BATCH);
}

TEST(PreferBatchSchedulingTest, PolicyTheOperatorChoseIsKept) {
  int returned = -1;
  std::thread([&] {
    sched_param param{};
    ASSERT_EQ(sched_setscheduler(0, SCHED_IDLE, &param), 0);
    returned = PreferBatchScheduling();
    EXPECT_EQ(sched_getscheduler(0), SCHED_IDLE);
  }).join();
  EXPECT_EQ(returned, SCHED_IDLE);
}

TEST(PreferBatchSchedulingTest, NiceValueIsKept) {
  std::thread([&] {
    errno = 0;
    const int nice_before = getpriority(PRIO_PROCESS, 0);
    PreferBatchScheduling();
    EXPECT_EQ(getpriority(PRIO_PROCESS, 0), nice_before);
  }).join();
}

}  // namespace
}  // namespace base
