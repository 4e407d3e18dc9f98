// ScriptedSync: a controller's sync function for unit tests. It records every
// sync of a key with the (fake) time it started; chosen keys fail a number of
// times or block until released. Waits on it are real-time thread hand-offs,
// bounded by kHandOffTimeout. Header-only: unit test binaries that do not link
// the test support library use it too.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "tests/support/hand_off.h"

namespace testsupport {

class ScriptedSync {
 public:
  explicit ScriptedSync(base::Clock& clock) : clock_(clock) {}

  void Fail(const std::string& key, int times) {
    std::lock_guard lock(mu_);
    failures_left_[key] = times;
  }
  void Block(const std::string& key) {
    std::lock_guard lock(mu_);
    blocked_.insert(key);
  }
  void Release(const std::string& key) {
    std::lock_guard lock(mu_);
    blocked_.erase(key);
    cv_.notify_all();
  }

  base::Status Sync(const std::string& key) {
    std::unique_lock lock(mu_);
    order_.push_back(key);
    start_times_[key].push_back(clock_.Now());
    max_concurrent_of_one_key_ = std::max(max_concurrent_of_one_key_, ++active_[key]);
    cv_.notify_all();
    cv_.wait(lock, [&] { return !blocked_.contains(key); });
    --active_[key];
    ++finished_[key];
    cv_.notify_all();
    int& failures = failures_left_[key];
    if (failures == 0) return {};
    --failures;
    return base::Error("scripted sync failure");
  }

  // Waits until `key` has started / finished `n` syncs.
  bool AwaitStarted(const std::string& key, size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return start_times_[key].size() >= n; });
  }
  bool AwaitFinished(const std::string& key, int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return finished_[key] >= n; });
  }

  // Every sync's key, in the order the syncs started.
  std::vector<std::string> Order() {
    std::lock_guard lock(mu_);
    return order_;
  }
  std::vector<base::Clock::TimePoint> StartTimes(const std::string& key) {
    std::lock_guard lock(mu_);
    return start_times_[key];
  }
  int Finished(const std::string& key) {
    std::lock_guard lock(mu_);
    return finished_[key];
  }
  int MaxConcurrentSyncsOfOneKey() {
    std::lock_guard lock(mu_);
    return max_concurrent_of_one_key_;
  }

 private:
  base::Clock& clock_;
  std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  std::map<std::string, int> failures_left_;
  std::set<std::string> blocked_;
  std::vector<std::string> order_;
  std::map<std::string, std::vector<base::Clock::TimePoint>> start_times_;
  std::map<std::string, int> active_;
  std::map<std::string, int> finished_;
  int max_concurrent_of_one_key_ = 0;
};

}  // namespace testsupport
