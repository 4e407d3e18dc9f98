#include "tests/fault_csi_driver/shutdown_signal.h"

namespace faultdriver {

void ShutdownSignal::Trigger() {
  {
    std::lock_guard lock(mu_);
    triggered_ = true;
  }
  cv_.notify_all();
}

bool ShutdownSignal::SleepFor(std::chrono::nanoseconds duration) {
  std::unique_lock lock(mu_);
  if (duration <= std::chrono::nanoseconds::zero()) return !triggered_;
  return !cv_.wait_for(lock, duration, [this] { return triggered_; });
}

}  // namespace faultdriver
