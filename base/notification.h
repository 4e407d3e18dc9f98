// Notification: a flag that turns true once and can be waited for with a stop
// token, like absl::Notification. Caches use it for "has synced": readers ask
// or block, the filling thread notifies once.
//
// Thread-safe: every method may be called from any thread.
#pragma once

#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace base {

class Notification {
 public:
  // Turns the flag true and wakes every waiter; later calls change nothing.
  void Notify();
  bool HasBeenNotified() const;
  // Blocks until Notify() or `stop`; returns HasBeenNotified().
  bool WaitForNotification(std::stop_token stop) const;

 private:
  mutable std::mutex mu_;                   // guards notified_
  mutable std::condition_variable_any cv_;  // signalled when notified_ turns true
  bool notified_ = false;
};

}  // namespace base
