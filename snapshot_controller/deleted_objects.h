// DeletedObjects<T>: the objects an informer saw deleted from the API whose
// key has not synced since, in the order they went. The loop remembers each
// one and queues its key; the worker that syncs the key takes them first, so
// what a deletion brings (metrics, queuing what it was bound to) never runs
// alongside a sync of the same key (docs/snapshots.md §4.2).
//
// Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kube/runtime/store.h"

namespace snapshot_controller {

template <class T>
class DeletedObjects {
 public:
  using Ptr = std::shared_ptr<const T>;

  // Remembers `object`; returns its key ("namespace/name" or the name).
  std::string Remember(Ptr object) {
    std::string key = kube::Store<T>::KeyOf(*object);
    std::lock_guard lock(mu_);
    gone_[key].push_back(std::move(object));
    return key;
  }

  // The objects remembered under `key`, oldest first, forgotten here.
  std::vector<Ptr> Take(const std::string& key) {
    std::lock_guard lock(mu_);
    auto it = gone_.find(key);
    if (it == gone_.end()) return {};
    std::vector<Ptr> gone = std::move(it->second);
    gone_.erase(it);
    return gone;
  }

 private:
  std::mutex mu_;  // guards gone_
  std::unordered_map<std::string, std::vector<Ptr>> gone_;
};

}  // namespace snapshot_controller
