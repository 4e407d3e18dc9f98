#include "kube/api/string_map.h"

#include <memory>
#include <new>

namespace kube {

StringMap::StringMap(const StringMap& other) {
  if (other.empty()) return;
  Reallocate(other.size());
  std::uninitialized_copy(other.begin(), other.end(), data());
  block_->size = other.block_->size;
}

std::string& StringMap::operator[](std::string_view key) {
  size_t pos = LowerBound(key);
  size_t n = size();
  if (pos < n && data()[pos].first == key) return data()[pos].second;
  value_type entry{std::string(key), std::string()};
  if (n == capacity()) Reallocate(n == 0 ? 1 : 2 * n);
  value_type* entries = data();
  if (pos == n) {
    new (entries + n) value_type(std::move(entry));
  } else {
    new (entries + n) value_type(std::move(entries[n - 1]));
    std::move_backward(entries + pos, entries + n - 1, entries + n);
    entries[pos] = std::move(entry);
  }
  ++block_->size;
  return entries[pos].second;
}

bool StringMap::erase(std::string_view key) {
  size_t pos = LowerBound(key);
  size_t n = size();
  if (pos == n || data()[pos].first != key) return false;
  value_type* entries = data();
  std::move(entries + pos + 1, entries + n, entries + pos);
  std::destroy_at(entries + n - 1);
  // An emptied map holds no block, as a new one does.
  if (--block_->size == 0) Free();
  return true;
}

void StringMap::Reallocate(size_t capacity) {
  void* memory = ::operator new(sizeof(Block) + capacity * sizeof(value_type));
  Block* block = new (memory) Block{.size = 0, .capacity = static_cast<uint32_t>(capacity)};
  value_type* entries = reinterpret_cast<value_type*>(block + 1);
  if (block_) {
    std::uninitialized_move(begin(), end(), entries);
    block->size = block_->size;
    Free();
  }
  block_ = block;
}

void StringMap::Free() {
  if (!block_) return;
  std::destroy(data(), data() + size());
  ::operator delete(block_);
  block_ = nullptr;
}

}  // namespace kube
