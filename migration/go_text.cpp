#include "migration/go_text.h"

#include <limits>

namespace migration {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// The escape Go writes for byte `c`, or nullptr when it is written as is.
const char* GoCEscape(char c) {
  switch (c) {
    case '\a':
      return "\\a";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\v':
      return "\\v";
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    default:
      return nullptr;
  }
}

base::Error AtoiError(std::string_view s, std::string_view why) {
  return base::Error("strconv.Atoi: parsing " + GoQuote(s) + ": " + std::string(why));
}

}  // namespace

std::string GoSetString(const std::set<std::string>& items) {
  std::string printed = "map[";
  for (const auto& item : items) printed += (printed.size() > 4 ? " " : "") + item + ":{}";
  return printed + "]";
}

std::string GoQuote(std::string_view s) {
  std::string quoted = "\"";
  for (char c : s) {
    auto byte = static_cast<unsigned char>(c);
    if (const char* escape = GoCEscape(c)) {
      quoted += escape;
    } else if (byte < 0x20 || byte == 0x7f) {
      quoted += {'\\', 'x', kHexDigits[byte >> 4], kHexDigits[byte & 0xf]};
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

base::Result<int32_t> GoAtoiInt32(std::string_view s) {
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return AtoiError(s, "invalid syntax");
  // Go scans left to right and reports the first problem: a non-digit, or
  // an overflow of uint64; int64's bounds are checked at the end.
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t magnitude = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return AtoiError(s, "invalid syntax");
    auto digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (kMax - digit) / 10) return AtoiError(s, "value out of range");
    magnitude = magnitude * 10 + digit;
  }
  constexpr uint64_t kInt64Limit = uint64_t{1} << 63;
  if (magnitude > kInt64Limit || (!negative && magnitude == kInt64Limit)) {
    return AtoiError(s, "value out of range");
  }
  uint64_t two_complement = negative ? ~magnitude + 1 : magnitude;
  return static_cast<int32_t>(static_cast<uint32_t>(two_complement));
}

}  // namespace migration
