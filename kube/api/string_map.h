// StringMap: a small string-to-string map (labels, annotations, volume
// attributes, Secret data) stored as one sorted vector. Caches hold tens of
// thousands of objects with a handful of entries each, and a sorted vector
// costs one allocation per map instead of one per node. The interface is the
// std::map subset callers need; iteration is in key order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kube {

class StringMap {
 public:
  using value_type = std::pair<std::string, std::string>;
  using const_iterator = std::vector<value_type>::const_iterator;

  StringMap() = default;
  // Later duplicates win, as with repeated assignment.
  StringMap(std::initializer_list<value_type> entries) {
    for (const auto& [key, value] : entries) (*this)[key] = value;
  }

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void reserve(size_t n) { entries_.reserve(n); }

  const_iterator find(std::string_view key) const {
    auto it = LowerBound(key);
    return it != entries_.end() && it->first == key ? it : entries_.end();
  }
  bool contains(std::string_view key) const { return find(key) != end(); }

  // Inserts an empty value when the key is new. Appending keys in sorted order
  // (as decoding does) never moves existing entries.
  std::string& operator[](std::string_view key) {
    auto it = LowerBound(key);
    if (it == entries_.end() || it->first != key) {
      it = entries_.emplace(it, std::string(key), std::string());
    }
    return it->second;
  }

  // Returns whether the key was present.
  bool erase(std::string_view key) {
    auto it = LowerBound(key);
    if (it == entries_.end() || it->first != key) return false;
    entries_.erase(it);
    return true;
  }

  bool operator==(const StringMap&) const = default;

 private:
  using Entries = std::vector<value_type>;

  // Shared by the const and mutable overloads below.
  template <class Iterator>
  static Iterator LowerBoundIn(Iterator first, Iterator last, std::string_view key) {
    return std::lower_bound(first, last, key,
                            [](const value_type& e, std::string_view k) { return e.first < k; });
  }
  Entries::iterator LowerBound(std::string_view key) {
    return LowerBoundIn(entries_.begin(), entries_.end(), key);
  }
  const_iterator LowerBound(std::string_view key) const {
    return LowerBoundIn(entries_.begin(), entries_.end(), key);
  }

  Entries entries_;
};

}  // namespace kube
