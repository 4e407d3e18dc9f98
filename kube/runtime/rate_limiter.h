// ItemExponentialRateLimiter: per-key retry backoff with the semantics of
// client-go's ItemExponentialFailureRateLimiter. Each When(key) counts one more
// failure of that key and returns base * 2^(earlier failures), capped at max;
// Forget(key) clears the count once the key succeeds. There is no global
// bucket: keys back off independently (docs/attacher.md §5.1).
//
// Thread-safe: one mutex guards the failure counts.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"

namespace kube {

class ItemExponentialRateLimiter {
 public:
  ItemExponentialRateLimiter(base::Clock::Duration base, base::Clock::Duration max);

  // Records a failure of `key` and returns how long to wait before retrying it.
  // Never exceeds max, however many failures there were.
  base::Clock::Duration When(const std::string& key);
  void Forget(const std::string& key);
  // Failures recorded for `key` since it was last forgotten.
  int NumRequeues(const std::string& key) const;
  // The keys with failures recorded, in no particular order.
  std::vector<std::string> FailingKeys() const;

 private:
  const base::Clock::Duration base_;
  const base::Clock::Duration max_;

  mutable std::mutex mu_;
  std::unordered_map<std::string, int> failures_;  // guarded by mu_
};

}  // namespace kube
