#include "kube/runtime/rate_limiter.h"

#include <cmath>
#include <limits>

namespace kube {

ItemExponentialRateLimiter::ItemExponentialRateLimiter(base::Clock::Duration base,
                                                       base::Clock::Duration max)
    : base_(base), max_(max) {}

base::Clock::Duration ItemExponentialRateLimiter::When(const std::string& key) {
  int exponent;
  {
    std::lock_guard lock(mu_);
    int& failures = failures_[key];
    exponent = failures;
    // Saturate: a key failing forever must not overflow the count.
    if (failures < std::numeric_limits<int>::max()) ++failures;
  }
  // Computed in floating point so large exponents give +inf, never a wrapped
  // integer; anything at or above max is max.
  double backoff = static_cast<double>(base_.count()) * std::ldexp(1.0, exponent);
  if (backoff >= static_cast<double>(max_.count())) return max_;
  return base::Clock::Duration(static_cast<base::Clock::Duration::rep>(backoff));
}

void ItemExponentialRateLimiter::Forget(const std::string& key) {
  std::lock_guard lock(mu_);
  failures_.erase(key);
}

int ItemExponentialRateLimiter::NumRequeues(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

std::vector<std::string> ItemExponentialRateLimiter::FailingKeys() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> keys;
  keys.reserve(failures_.size());
  for (const auto& [key, failures] : failures_) keys.push_back(key);
  return keys;
}

}  // namespace kube
