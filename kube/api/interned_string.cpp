#include "kube/api/interned_string.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unordered_map>

namespace kube {

struct InternedString::Entry {
  std::string text;
  mutable std::atomic<uint64_t> holders{1};
};

// The live entries by text. An entry's count drops to zero only under the
// mutex, and only Intern (under the mutex) raises it from there, so an entry
// found in the map is never being deleted; a holder copying its string raises
// the count without the mutex, as it is at least one already.
class InternedStringPool {
 public:
  using Entry = InternedString::Entry;

  static InternedStringPool& Get() {
    static auto* pool = new InternedStringPool();  // never destroyed: strings may outlive statics
    return *pool;
  }

  const Entry* Intern(std::string_view text) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(text);
    if (it != entries_.end()) {
      it->second->holders.fetch_add(1, std::memory_order_relaxed);
      return it->second;
    }
    auto* entry = new Entry{std::string(text)};
    entries_.emplace(entry->text, entry);
    return entry;
  }

  size_t Size() {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

  static void Hold(const Entry* entry) { entry->holders.fetch_add(1, std::memory_order_relaxed); }

  void Release(const Entry* entry) {
    uint64_t holders = entry->holders.load(std::memory_order_relaxed);
    while (holders > 1) {
      if (entry->holders.compare_exchange_weak(holders, holders - 1, std::memory_order_acq_rel)) {
        return;
      }
    }
    std::lock_guard lock(mutex_);
    if (entry->holders.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    entries_.erase(entry->text);
    delete entry;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string_view, const Entry*> entries_;  // keys view entry->text
};

InternedString::InternedString(std::string_view text)
    : entry_(text.empty() ? nullptr : InternedStringPool::Get().Intern(text)) {}

InternedString::InternedString(const InternedString& other) : entry_(other.entry_) {
  if (entry_ != nullptr) InternedStringPool::Hold(entry_);
}

InternedString& InternedString::operator=(const InternedString& other) {
  if (other.entry_ != nullptr) InternedStringPool::Hold(other.entry_);
  if (entry_ != nullptr) InternedStringPool::Get().Release(entry_);
  entry_ = other.entry_;
  return *this;
}

InternedString& InternedString::operator=(InternedString&& other) noexcept {
  if (this != &other) {
    if (entry_ != nullptr) InternedStringPool::Get().Release(entry_);
    entry_ = other.entry_;
    other.entry_ = nullptr;
  }
  return *this;
}

InternedString::~InternedString() {
  if (entry_ != nullptr) InternedStringPool::Get().Release(entry_);
}

size_t InternedString::PooledCount() { return InternedStringPool::Get().Size(); }

const std::string& InternedString::str() const {
  static const std::string kEmpty;
  return entry_ != nullptr ? entry_->text : kEmpty;
}

std::ostream& operator<<(std::ostream& out, const InternedString& text) {
  return out << text.str();
}

void to_json(nlohmann::json& j, const InternedString& text) { j = text.str(); }

}  // namespace kube
