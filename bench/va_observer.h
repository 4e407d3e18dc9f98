// VaObserver: watches every VolumeAttachment (admin client, see VaWatch) and
// stamps, per name, the moment the watch first showed it attached and the
// moment it showed it deleted. Times come from the event's arrival at this
// process, so what is measured is what any client of the API server would see.
// VAs attached already in the initial list are stamped with the list's time.
//
// Thread-safe; the watch runs until the observer is destroyed.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "bench/va_watch.h"
#include "kube/client/client.h"

namespace bench {

using Clock = std::chrono::steady_clock;

class VaObserver {
 public:
  static base::Result<std::unique_ptr<VaObserver>> Start(kube::Client& admin);

  std::optional<Clock::time_point> AttachedAt(const std::string& name) const;
  std::optional<Clock::time_point> DeletedAt(const std::string& name) const;
  size_t CountAttached(const std::vector<std::string>& names) const;
  size_t CountDeleted(const std::vector<std::string>& names) const;

  // Polls `done` until it holds (true) or `timeout` passes (false).
  static bool WaitUntil(const std::function<bool()>& done, std::chrono::seconds timeout);

 private:
  struct Stamps {
    std::optional<Clock::time_point> attached;
    std::optional<Clock::time_point> deleted;
  };

  VaObserver() = default;
  void Record(const kube::VolumeAttachment& va, bool deleted, Clock::time_point when);

  mutable std::mutex mu_;
  std::unordered_map<std::string, Stamps> stamps_;  // guarded by mu_
  std::unique_ptr<VaWatch> watch_;                  // last: stops before the stamps go
};

}  // namespace bench
