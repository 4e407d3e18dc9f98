// Store<T>: the cache a Reflector keeps current: the latest version of each
// object, keyed by "namespace/name" ("name" for cluster-scoped kinds). Readers
// get immutable shared snapshots, so a worker may hold an object while the
// store moves on. Objects are the compact typed structs of kube/, never JSON.
//
// Thread-safe: a shared_mutex guards the map; readers never block each other.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kube {

template <class T>
class Store {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Map = std::unordered_map<std::string, Ptr>;

  static std::string KeyOf(std::string_view ns, std::string_view name) {
    if (ns.empty()) return std::string(name);
    std::string key;
    key.reserve(ns.size() + 1 + name.size());
    key.append(ns).append("/").append(name);
    return key;
  }
  static std::string KeyOf(const T& object) {
    return KeyOf(object.metadata.namespace_, object.metadata.name);
  }

  Ptr Get(std::string_view ns, std::string_view name) const { return GetByKey(KeyOf(ns, name)); }
  Ptr GetByKey(const std::string& key) const {
    std::shared_lock lock(mu_);
    auto it = objects_.find(key);
    return it == objects_.end() ? nullptr : it->second;
  }

  std::vector<Ptr> List() const {
    std::shared_lock lock(mu_);
    std::vector<Ptr> out;
    out.reserve(objects_.size());
    for (const auto& [key, object] : objects_) out.push_back(object);
    return out;
  }

  size_t Size() const {
    std::shared_lock lock(mu_);
    return objects_.size();
  }

  // Inserts or replaces; returns the previous version (nullptr if new).
  Ptr Upsert(Ptr object) {
    std::string key = KeyOf(*object);
    std::unique_lock lock(mu_);
    Ptr& slot = objects_[std::move(key)];
    Ptr previous = std::move(slot);
    slot = std::move(object);
    return previous;
  }

  // Removes; returns what was stored (nullptr if absent).
  Ptr Remove(const T& object) {
    std::unique_lock lock(mu_);
    auto it = objects_.find(KeyOf(object));
    if (it == objects_.end()) return nullptr;
    Ptr previous = std::move(it->second);
    objects_.erase(it);
    return previous;
  }

  // Swaps in a complete new content (after a list); returns the old content.
  Map Replace(std::vector<Ptr> objects) {
    Map fresh;
    fresh.reserve(objects.size());
    for (auto& object : objects) {
      std::string key = KeyOf(*object);
      fresh.emplace(std::move(key), std::move(object));
    }
    std::unique_lock lock(mu_);
    objects_.swap(fresh);
    return fresh;
  }

 private:
  mutable std::shared_mutex mu_;  // guards objects_
  Map objects_;
};

}  // namespace kube
