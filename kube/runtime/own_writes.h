// OwnWrites: the resourceVersions a controller's own writes produced, per
// queue key, so the watch events they cause can be told from other writers'
// changes. Every write has one resourceVersion, and the watch event of that
// write carries the same one; a later change by anybody carries another.
//
// Record() notes a write; TakeIfOwn() answers whether an event's version is
// one of them and forgets it then (each write has one event). A write whose
// event never comes (a relist skipped over it) is forgotten with its key, or
// when more than kMaxPerKey later writes of the key are noted.
//
// Not thread-safe: the owner guards it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kube {

class OwnWrites {
 public:
  static constexpr size_t kMaxPerKey = 4;

  void Record(const std::string& key, std::string_view resource_version);
  bool TakeIfOwn(const std::string& key, std::string_view resource_version);
  void Forget(const std::string& key) { versions_.erase(key); }
  // Keys with a write whose event has not come yet.
  size_t Size() const { return versions_.size(); }

 private:
  // Oldest first.
  std::unordered_map<std::string, std::vector<std::string>> versions_;
};

}  // namespace kube
