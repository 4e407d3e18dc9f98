// StringMap: a small string-to-string map (labels, annotations, volume
// attributes, Secret data) stored as one sorted array. Caches hold tens of
// thousands of objects with a handful of entries each, and a sorted array
// costs one allocation per map instead of one per node. The interface is the
// std::map subset callers need; iteration is in key order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace kube {

class StringMap {
 public:
  using value_type = std::pair<std::string, std::string>;
  using const_iterator = const value_type*;

  StringMap() = default;
  // Later duplicates win, as with repeated assignment.
  StringMap(std::initializer_list<value_type> entries) {
    for (const auto& [key, value] : entries) (*this)[key] = value;
  }
  StringMap(const StringMap& other);
  StringMap(StringMap&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  StringMap& operator=(const StringMap& other) {
    if (this != &other) *this = StringMap(other);
    return *this;
  }
  StringMap& operator=(StringMap&& other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  ~StringMap() { Free(); }

  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size(); }
  size_t size() const { return block_ ? block_->size : 0; }
  bool empty() const { return size() == 0; }
  void reserve(size_t n) {
    if (n > capacity()) Reallocate(n);
  }

  const_iterator find(std::string_view key) const {
    size_t pos = LowerBound(key);
    return pos < size() && data()[pos].first == key ? data() + pos : end();
  }
  bool contains(std::string_view key) const { return find(key) != end(); }

  // Inserts an empty value when the key is new. Appending keys in sorted order
  // (as decoding does) never moves existing entries.
  std::string& operator[](std::string_view key);

  // Returns whether the key was present.
  bool erase(std::string_view key);

  friend bool operator==(const StringMap& a, const StringMap& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // The entries live in one heap block behind a header, so a map costs one
  // pointer in its object - null while empty, as nearly every cached
  // object's labels and annotations are - where a vector took three.
  struct Block {
    uint32_t size;
    uint32_t capacity;
  };
  static_assert(sizeof(Block) % alignof(value_type) == 0);  // entries follow it

  size_t capacity() const { return block_ ? block_->capacity : 0; }
  value_type* data() const { return block_ ? reinterpret_cast<value_type*>(block_ + 1) : nullptr; }
  // The first entry whose key is not less than `key`.
  size_t LowerBound(std::string_view key) const {
    const value_type* first = std::lower_bound(
        begin(), end(), key, [](const value_type& e, std::string_view k) { return e.first < k; });
    return first - begin();
  }
  // Moves the entries into a block for `capacity` entries.
  void Reallocate(size_t capacity);
  void Free();

  Block* block_ = nullptr;
};

}  // namespace kube
