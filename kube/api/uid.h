// Uid: a metadata.uid, or the uid of a reference to an object, the way
// cached objects keep it. The API server gives every object a random UUID
// ("6ba7b810-9dad-41d1-80b4-00c04fd430c8"): as text that is a 32-byte string
// and a 48-byte heap block, twice in a content or a bound volume; its 16
// bytes fit in the Uid itself. Any other text (hand-written objects, tests)
// is kept as written on the heap, so a Uid reads back exactly the text it was
// given. Text assigns and compares, as with the string it replaces; it does
// not convert back to a string implicitly (str() makes one).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace kube {

class Uid {
 public:
  Uid() = default;
  // Implicit, as a string member took any text ("" is empty).
  Uid(std::string_view text);                                    // NOLINT
  Uid(const char* text) : Uid(std::string_view(text)) {}         // NOLINT
  Uid(const std::string& text) : Uid(std::string_view(text)) {}  // NOLINT
  Uid(const Uid& other);
  Uid(Uid&& other) noexcept : high_(other.high_), low_(other.low_) { other.Release(); }
  Uid& operator=(const Uid& other);
  Uid& operator=(Uid&& other) noexcept;
  ~Uid() { clear(); }

  bool empty() const { return low_ == 0; }
  void clear();
  // The text it was given; "" when empty.
  std::string str() const;

  friend bool operator==(const Uid& a, const Uid& b);

 private:
  // Three states, told apart by low_. A UUID of RFC 4122's variant (the only
  // kind the API server makes) has 10 as the top bits of its ninth byte, and
  // so of low_: its bytes are high_ and low_ in text order. low_ == kText
  // (top bits 11) means high_ holds an owning std::string* of other text;
  // low_ == 0 means empty. The nil UUID and other variants are kept as text.
  static constexpr uint64_t kText = uint64_t{3} << 62;

  bool IsText() const { return low_ == kText; }
  const std::string& Text() const { return *reinterpret_cast<const std::string*>(high_); }
  void Release() { high_ = low_ = 0; }

  uint64_t high_ = 0;
  uint64_t low_ = 0;
};

// For test failure messages.
std::ostream& operator<<(std::ostream& out, const Uid& uid);

}  // namespace kube
