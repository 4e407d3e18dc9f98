// FloorCache<T>: a floor controller's copies of objects of kind T by key, fed
// by its watch and by the answers to its own writes. A copy never replaces a
// newer one, and a deleted object stays deleted (resourceVersions compared
// as the etcd revisions they are), so a watch event that arrives after a
// write's answer cannot undo what the write returned. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "base/result.h"
#include "bench/object_watch.h"
#include "kube/runtime/reconcile_loop.h"

namespace bench {

template <class T>
class FloorCache {
 public:
  void Upsert(const std::string& key, const T& object) {
    std::lock_guard lock(mu_);
    int64_t version = Revision(object);
    if (auto gone = deleted_.find(key); gone != deleted_.end() && gone->second >= version) return;
    auto [it, added] = objects_.try_emplace(key, object);
    if (!added && Revision(it->second) < version) it->second = object;
  }

  void Erase(const std::string& key, const T& last) {
    std::lock_guard lock(mu_);
    objects_.erase(key);
    deleted_[key] = Revision(last);
  }

  std::optional<T> Get(const std::string& key) const {
    std::lock_guard lock(mu_);
    auto it = objects_.find(key);
    if (it == objects_.end()) return std::nullopt;
    return it->second;
  }

 private:
  static int64_t Revision(const T& object) {
    try {
      return std::stoll(object.metadata.resource_version);
    } catch (const std::exception&) {
      return 0;
    }
  }

  mutable std::mutex mu_;
  std::unordered_map<std::string, T> objects_;  // guarded by mu_
  std::unordered_map<std::string, int64_t>
      deleted_;  // key -> revision of the deletion; guarded by mu_
};

// Watches a floor's primary kind T: each object goes into `cache` under
// `key_of(object)` and that key to `pool` (changed, or deleted: its own
// writes forgotten).
template <class T>
base::Result<std::unique_ptr<ObjectWatch<T>>> WatchPrimary(
    kube::Client& client, FloorCache<T>& cache, kube::ReconcileLoop& pool,
    std::function<std::string(const T&)> key_of) {
  return ObjectWatch<T>::Start(
      client, [&cache, &pool, key_of = std::move(key_of)](const T& object, bool deleted) {
        const std::string key = key_of(object);
        if (deleted) {
          cache.Erase(key, object);
          pool.OnDeleted(key);
          return;
        }
        cache.Upsert(key, object);
        pool.OnChange(key, object.metadata.resource_version, kube::WorkQueue::Lane::kNormal);
      });
}

}  // namespace bench
