// EventThrottle (docs/snapshots.md §9.7): one Event per key per interval.
#include "snapshot_controller/event_throttle.h"

#include <gtest/gtest.h>

#include <chrono>

namespace snapshot_controller {
namespace {

class EventThrottleTest : public ::testing::Test {
 protected:
  base::FakeClock clock_;
  EventThrottle throttle_{clock_, std::chrono::minutes(5)};
};

TEST_F(EventThrottleTest, AllowsOneEventPerKeyPerInterval) {
  EXPECT_TRUE(throttle_.Allow("uid-1"));
  EXPECT_TRUE(throttle_.Allow("uid-2")) << "keys are apart";
  clock_.Advance(std::chrono::minutes(5) - std::chrono::milliseconds(1));
  EXPECT_FALSE(throttle_.Allow("uid-1"));
  clock_.Advance(std::chrono::milliseconds(1));
  EXPECT_TRUE(throttle_.Allow("uid-1"));
  EXPECT_FALSE(throttle_.Allow("uid-1")) << "the interval starts again";
}

TEST_F(EventThrottleTest, ForgetLetsTheNextWaitReportAtOnce) {
  EXPECT_TRUE(throttle_.Allow("uid-1"));
  throttle_.Forget("uid-1");
  EXPECT_TRUE(throttle_.Allow("uid-1"));
  throttle_.Forget("never-seen");  // harmless
}

}  // namespace
}  // namespace snapshot_controller
