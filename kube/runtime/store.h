// Store<T>: the cache a Reflector keeps current: the latest version of each
// object, keyed by "namespace/name" ("name" for cluster-scoped kinds). Readers
// get immutable shared snapshots, so a worker may hold an object while the
// store moves on. Objects are the compact typed structs of kube/, never JSON.
//
// The map's keys are views of the stored object's own namespace and name, not
// copies: a cache of 20,000 objects with 48-character names saves a heap
// string per entry. A key is valid while its entry holds the object;
// replacing an entry's object re-points its key.
//
// Thread-safe: a shared_mutex guards the map; readers never block each other.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kube {

// Where an object is in a Store: views of its namespace (empty for
// cluster-scoped kinds) and name.
struct ObjectKey {
  std::string_view ns;
  std::string_view name;

  bool operator==(const ObjectKey&) const = default;

  // "namespace/name", or "name" for cluster-scoped kinds: the queue key.
  std::string ToString() const {
    if (ns.empty()) return std::string(name);
    std::string key;
    key.reserve(ns.size() + 1 + name.size());
    key.append(ns).append("/").append(name);
    return key;
  }

  // "namespace/name" or "name"; names and namespaces hold no '/'.
  static ObjectKey Parse(std::string_view key) {
    size_t slash = key.find('/');
    if (slash == std::string_view::npos) return {{}, key};
    return {key.substr(0, slash), key.substr(slash + 1)};
  }
};

struct ObjectKeyHash {
  size_t operator()(const ObjectKey& key) const {
    size_t hash = std::hash<std::string_view>()(key.name);
    if (!key.ns.empty()) hash ^= std::hash<std::string_view>()(key.ns) * 31;
    return hash;
  }
};

template <class T>
class Store {
 public:
  using Ptr = std::shared_ptr<const T>;
  // Each key views the namespace and name of the object its entry holds.
  using Map = std::unordered_map<ObjectKey, Ptr, ObjectKeyHash>;

  static std::string KeyOf(std::string_view ns, std::string_view name) {
    return ObjectKey{ns, name}.ToString();
  }
  static std::string KeyOf(const T& object) {
    return KeyOf(object.metadata.namespace_, object.metadata.name);
  }
  // The map key of `object`, valid while `object` is.
  static ObjectKey ViewOf(const T& object) {
    return {object.metadata.namespace_, object.metadata.name};
  }

  Ptr Get(std::string_view ns, std::string_view name) const { return Find({ns, name}); }
  Ptr GetByKey(std::string_view key) const { return Find(ObjectKey::Parse(key)); }

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
    std::unique_lock lock(mu_);
    return Put(objects_, std::move(object));
  }

  // Replaces the object stored under `object`'s key only while that is
  // still `expected` (the same snapshot), so a process's own write does not
  // undo a newer version a watch event stored meanwhile. Returns whether it
  // replaced it.
  bool ReplaceIfCurrent(const Ptr& expected, Ptr object) {
    std::unique_lock lock(mu_);
    auto it = objects_.find(ViewOf(*object));
    if (it == objects_.end() || it->second != expected) return false;
    Put(objects_, std::move(object));
    return true;
  }

  // Removes; returns what was stored (nullptr if absent).
  Ptr Remove(const T& object) {
    std::unique_lock lock(mu_);
    auto it = objects_.find(ViewOf(object));
    if (it == objects_.end()) return nullptr;
    Ptr previous = std::move(it->second);
    objects_.erase(it);
    return previous;
  }

  // Swaps in a complete new content (after a list); returns the old content.
  Map Replace(std::vector<Ptr> objects) {
    Map fresh;
    fresh.reserve(objects.size());
    for (auto& object : objects) Put(fresh, std::move(object));
    std::unique_lock lock(mu_);
    objects_.swap(fresh);
    return fresh;
  }

 private:
  // Puts `object` in `map`; returns the object of the entry it replaces. That
  // entry's key views the old object, so it is re-pointed before the entry
  // lets go of it (extracting and re-inserting a node allocates nothing).
  static Ptr Put(Map& map, Ptr object) {
    const ObjectKey key = ViewOf(*object);
    auto it = map.find(key);
    if (it == map.end()) {
      map.emplace(key, std::move(object));
      return nullptr;
    }
    auto node = map.extract(it);
    node.key() = key;
    Ptr previous = std::exchange(node.mapped(), std::move(object));
    map.insert(std::move(node));
    return previous;
  }

  Ptr Find(const ObjectKey& key) const {
    std::shared_lock lock(mu_);
    auto it = objects_.find(key);
    return it == objects_.end() ? nullptr : it->second;
  }

  mutable std::shared_mutex mu_;  // guards objects_
  Map objects_;
};

}  // namespace kube
