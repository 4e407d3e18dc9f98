#include "kube/client/token_bucket.h"

#include <algorithm>
#include <chrono>

namespace kube {

TokenBucket::TokenBucket(double qps, int burst, base::Clock& clock)
    : qps_(qps),
      burst_(std::max(burst, 1)),
      clock_(clock),
      tokens_(burst_),
      last_refill_(clock.Now()) {}

void TokenBucket::RefillLocked(base::Clock::TimePoint now) {
  if (now <= last_refill_) return;
  double elapsed = std::chrono::duration<double>(now - last_refill_).count();
  tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
  last_refill_ = now;
}

bool TokenBucket::Wait(std::stop_token stop) {
  if (stop.stop_requested()) return false;
  if (qps_ <= 0) return true;
  base::Clock::TimePoint due;
  {
    std::lock_guard lock(mu_);
    base::Clock::TimePoint now = clock_.Now();
    RefillLocked(now);
    tokens_ -= 1;
    if (tokens_ >= 0) return true;
    due = now +
          std::chrono::round<base::Clock::Duration>(std::chrono::duration<double>(-tokens_ / qps_));
  }
  if (clock_.SleepUntil(due, stop)) return true;
  std::lock_guard lock(mu_);
  RefillLocked(clock_.Now());
  tokens_ = std::min(burst_, tokens_ + 1);
  return false;
}

bool TokenBucket::TryAccept() {
  if (qps_ <= 0) return true;
  std::lock_guard lock(mu_);
  RefillLocked(clock_.Now());
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

}  // namespace kube
