#include "base/notification.h"

namespace base {

void Notification::Notify() {
  std::lock_guard lock(mu_);
  notified_ = true;
  cv_.notify_all();
}

bool Notification::HasBeenNotified() const {
  std::lock_guard lock(mu_);
  return notified_;
}

bool Notification::WaitForNotification(std::stop_token stop) const {
  std::unique_lock lock(mu_);
  return cv_.wait(lock, stop, [this] { return notified_; });
}

}  // namespace base
