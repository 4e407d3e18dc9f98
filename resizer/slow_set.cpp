#include "resizer/slow_set.h"

namespace resizer {

void SlowSet::Mark(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = since_.find(key);
  if (it == since_.end() || clock_.Now() - it->second >= retention_) since_[key] = clock_.Now();
}

base::Clock::Duration SlowSet::TimeLeft(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = since_.find(key);
  if (it == since_.end()) return base::Clock::Duration::zero();
  const base::Clock::Duration left = retention_ - (clock_.Now() - it->second);
  return left > base::Clock::Duration::zero() ? left : base::Clock::Duration::zero();
}

void SlowSet::Remove(const std::string& key) {
  std::lock_guard lock(mu_);
  since_.erase(key);
}

}  // namespace resizer
