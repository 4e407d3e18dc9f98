#include "base/notification.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stop_token>

namespace base {
namespace {

using namespace std::chrono_literals;

TEST(NotificationTest, NotifyWakesWaiters) {
  Notification notification;
  EXPECT_FALSE(notification.HasBeenNotified());
  auto waited =
      std::async(std::launch::async, [&] { return notification.WaitForNotification({}); });
  notification.Notify();
  ASSERT_EQ(waited.wait_for(5s), std::future_status::ready);
  EXPECT_TRUE(waited.get());
  EXPECT_TRUE(notification.HasBeenNotified());
  notification.Notify();  // again: still notified
  EXPECT_TRUE(notification.WaitForNotification({}));
}

TEST(NotificationTest, StopEndsTheWaitUnnotified) {
  Notification notification;
  std::stop_source stop;
  auto waited = std::async(std::launch::async,
                           [&] { return notification.WaitForNotification(stop.get_token()); });
  stop.request_stop();
  ASSERT_EQ(waited.wait_for(5s), std::future_status::ready);
  EXPECT_FALSE(waited.get());
  EXPECT_FALSE(notification.HasBeenNotified());
}

}  // namespace
}  // namespace base
