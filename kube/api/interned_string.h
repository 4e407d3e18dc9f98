// InternedString: an immutable string held once per process however many
// objects repeat it - for values that thousands of cached objects share, such
// as finalizers. It is one pointer to a pooled, reference-counted text; equal
// texts share one entry, which leaves the pool with its last holder. It is
// built implicitly from std::string, std::string_view and string literals,
// converts to const std::string& and std::string_view, and compares with all
// of them, so a std::vector<InternedString> reads like a
// std::vector<std::string>. Thread-safe: the pool is shared by all threads.
// The codecs (field.h) read and write it as a JSON string.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <type_traits>

namespace kube {

class InternedString {
 public:
  InternedString() = default;             // ""
  InternedString(std::string_view text);  // NOLINT: implicit as a string
  InternedString(const std::string& text) : InternedString(std::string_view(text)) {}  // NOLINT
  InternedString(const char* text) : InternedString(std::string_view(text)) {}         // NOLINT

  InternedString(const InternedString& other);
  InternedString(InternedString&& other) noexcept : entry_(other.entry_) { other.entry_ = nullptr; }
  InternedString& operator=(const InternedString& other);
  InternedString& operator=(InternedString&& other) noexcept;
  ~InternedString();

  const std::string& str() const;
  operator const std::string&() const { return str(); }  // NOLINT: reads as a string
  operator std::string_view() const { return str(); }    // NOLINT: reads as a string
  bool empty() const { return entry_ == nullptr; }
  size_t size() const { return str().size(); }

  // The number of distinct non-empty texts held in the process.
  static size_t PooledCount();

  // Equal texts share an entry, so two InternedStrings compare by pointer.
  friend bool operator==(const InternedString& a, const InternedString& b) {
    return a.entry_ == b.entry_;
  }
  template <class S>
  requires(std::is_convertible_v<const S&, std::string_view> &&
           !std::is_same_v<S, InternedString>) friend bool
  operator==(const InternedString& a, const S& b) {
    return a.str() == std::string_view(b);
  }

 private:
  struct Entry;
  friend class InternedStringPool;

  const Entry* entry_ = nullptr;  // null for ""
};

std::ostream& operator<<(std::ostream& out, const InternedString& text);
void to_json(nlohmann::json& j, const InternedString& text);  // a JSON string

}  // namespace kube
