// ObjectObserver<T>: watches every object of kind T (admin client, see
// ObjectWatch) and stamps, per name, the moment the watch first showed it
// done (the predicate given: a VolumeAttachment attached, a VolumeSnapshot
// readyToUse) and the moment it showed it deleted. Times come from the
// event's arrival at this process, so what is measured is what any client of
// the API server would see. Objects done already in the initial list are
// stamped with the list's time. Names are unique per kind in a benchmark
// (every namespaced object lives in one namespace).
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
#include "bench/object_watch.h"
#include "kube/client/client.h"

namespace bench {

using Clock = std::chrono::steady_clock;
using Stamps = std::vector<std::optional<Clock::time_point>>;

template <class T>
class ObjectObserver {
 public:
  using Done = std::function<bool(const T&)>;

  static base::Result<std::unique_ptr<ObjectObserver>> Start(kube::Client& admin, Done done) {
    std::unique_ptr<ObjectObserver> observer(new ObjectObserver(std::move(done)));
    auto watch = ObjectWatch<T>::Start(admin, [o = observer.get()](const T& object, bool deleted) {
      o->Record(object, deleted, Clock::now());
    });
    if (!watch.ok()) return watch.error();
    observer->watch_ = std::move(*watch);
    return observer;
  }

  std::optional<Clock::time_point> DoneAt(const std::string& name) const {
    std::lock_guard lock(mu_);
    auto it = stamps_.find(name);
    return it == stamps_.end() ? std::nullopt : it->second.done;
  }
  std::optional<Clock::time_point> DeletedAt(const std::string& name) const {
    std::lock_guard lock(mu_);
    auto it = stamps_.find(name);
    return it == stamps_.end() ? std::nullopt : it->second.deleted;
  }
  // The stamps of `names`, in their order.
  Stamps DoneStamps(const std::vector<std::string>& names) const {
    Stamps stamps;
    for (const auto& name : names) stamps.push_back(DoneAt(name));
    return stamps;
  }
  Stamps DeletedStamps(const std::vector<std::string>& names) const {
    Stamps stamps;
    for (const auto& name : names) stamps.push_back(DeletedAt(name));
    return stamps;
  }
  size_t CountDone(const std::vector<std::string>& names) const {
    return Count(names, &Marks::done);
  }
  size_t CountDeleted(const std::vector<std::string>& names) const {
    return Count(names, &Marks::deleted);
  }

 private:
  struct Marks {
    std::optional<Clock::time_point> done;
    std::optional<Clock::time_point> deleted;
  };

  explicit ObjectObserver(Done done) : done_(std::move(done)) {}

  void Record(const T& object, bool deleted, Clock::time_point when) {
    std::lock_guard lock(mu_);
    Marks& marks = stamps_[object.metadata.name];
    if (!marks.done && done_(object)) marks.done = when;
    if (deleted && !marks.deleted) marks.deleted = when;
  }

  size_t Count(const std::vector<std::string>& names,
               std::optional<Clock::time_point> Marks::*field) const {
    std::lock_guard lock(mu_);
    size_t count = 0;
    for (const auto& name : names) {
      auto it = stamps_.find(name);
      if (it != stamps_.end() && it->second.*field) ++count;
    }
    return count;
  }

  const Done done_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Marks> stamps_;  // guarded by mu_
  std::unique_ptr<ObjectWatch<T>> watch_;          // last: stops before the stamps go
};

// Polls `count` every 20 ms until it reaches `total` (ok) or `timeout`
// passes: an error "<count> of <total> <what>".
base::Status WaitForCount(const std::function<size_t()>& count, size_t total,
                          const std::string& what, std::chrono::seconds timeout);

}  // namespace bench
