#include "kube/api/uid.h"

#include <optional>
#include <ostream>
#include <utility>

namespace kube {
namespace {

constexpr size_t kUuidLength = 36;  // 8-4-4-4-12 hex digits
constexpr uint64_t kVariantMask = uint64_t{3} << 62;
constexpr uint64_t kRfc4122Variant = uint64_t{2} << 62;

bool IsDash(size_t pos) { return pos == 8 || pos == 13 || pos == 18 || pos == 23; }

// Lower-case only: upper-case text would not read back as written.
std::optional<unsigned> HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return std::nullopt;
}

// The 16 bytes of a lower-case UUID in its canonical text form; nullopt for
// any other text.
std::optional<std::pair<uint64_t, uint64_t>> ParseUuid(std::string_view text) {
  if (text.size() != kUuidLength) return std::nullopt;
  uint64_t halves[2] = {0, 0};
  int digits = 0;
  for (size_t pos = 0; pos < text.size(); ++pos) {
    if (IsDash(pos)) {
      if (text[pos] != '-') return std::nullopt;
      continue;
    }
    std::optional<unsigned> digit = HexDigit(text[pos]);
    if (!digit) return std::nullopt;
    uint64_t& half = halves[digits / 16];
    half = half << 4 | *digit;
    ++digits;
  }
  return std::pair{halves[0], halves[1]};
}

}  // namespace

Uid::Uid(std::string_view text) {
  if (text.empty()) return;
  if (auto uuid = ParseUuid(text); uuid && (uuid->second & kVariantMask) == kRfc4122Variant) {
    high_ = uuid->first;
    low_ = uuid->second;
    return;
  }
  high_ = reinterpret_cast<uint64_t>(new std::string(text));
  low_ = kText;
}

Uid::Uid(const Uid& other) : high_(other.high_), low_(other.low_) {
  if (other.IsText()) high_ = reinterpret_cast<uint64_t>(new std::string(other.Text()));
}

Uid& Uid::operator=(const Uid& other) {
  if (this != &other) *this = Uid(other);
  return *this;
}

Uid& Uid::operator=(Uid&& other) noexcept {
  if (this != &other) {
    clear();
    high_ = other.high_;
    low_ = other.low_;
    other.Release();
  }
  return *this;
}

void Uid::clear() {
  if (IsText()) delete reinterpret_cast<std::string*>(high_);
  Release();
}

std::string Uid::str() const {
  if (empty()) return {};
  if (IsText()) return Text();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text(kUuidLength, '-');
  int digit = 0;
  for (size_t pos = 0; pos < text.size(); ++pos) {
    if (IsDash(pos)) continue;
    uint64_t half = digit < 16 ? high_ : low_;
    text[pos] = kHex[(half >> (60 - 4 * (digit % 16))) & 0xf];
    ++digit;
  }
  return text;
}

bool operator==(const Uid& a, const Uid& b) {
  if (a.IsText() && b.IsText()) return a.Text() == b.Text();
  return a.high_ == b.high_ && a.low_ == b.low_;
}

std::ostream& operator<<(std::ostream& out, const Uid& uid) { return out << uid.str(); }

}  // namespace kube
