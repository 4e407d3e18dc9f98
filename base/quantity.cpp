#include "base/quantity.h"

#include <array>
#include <limits>

namespace base {
namespace {

constexpr const char* kQuantityFormatError =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Divides `value` by `base` while it divides exactly; returns how often.
int RemoveFactors(int64_t& value, int64_t base) {
  int times = 0;
  while (value % base == 0 && (value >= base || value <= -base)) {
    value /= base;
    ++times;
  }
  return times;
}

}  // namespace

Result<bool> QuantityIsZero(std::string_view s) {
  if (s.empty()) return Error(kQuantityFormatError);
  size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
  bool zero = true;
  bool saw_dot = false;
  for (; i < s.size() && (IsDigit(s[i]) || (s[i] == '.' && !saw_dot)); ++i) {
    saw_dot = saw_dot || s[i] == '.';
    zero = zero && (s[i] == '0' || s[i] == '.');
  }
  std::string_view suffix = s.substr(i);
  size_t letters = suffix.find_first_not_of("eEinumkKMGTP");
  std::string_view exponent = letters == std::string_view::npos ? "" : suffix.substr(letters);
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
  for (char c : exponent) {
    if (!IsDigit(c)) return Error(kQuantityFormatError);
  }
  static constexpr std::string_view kSuffixes[] = {"",  "n", "u",  "m",  "k",  "M",  "G",  "T",
                                                   "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  for (std::string_view known : kSuffixes) {
    if (suffix == known) return zero;
  }
  // A decimal exponent: e or E, an optional sign, digits.
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::string_view digits = suffix.substr(1);
    if (digits[0] == '+' || digits[0] == '-') digits.remove_prefix(1);
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
      return zero;
    }
  }
  return Error("unable to parse quantity's suffix");
}

std::string FormatBinarySIQuantity(int64_t value) {
  if (value > -1024 && value < 1024) {
    // Small amounts are written in decimal, the exponent a multiple of 3;
    // below 1024 that is at most 3 ("1k").
    int exponent = RemoveFactors(value, 10);
    for (; exponent % 3 != 0; --exponent) value *= 10;
    return std::to_string(value) + (exponent == 3 ? "k" : "");
  }
  // Go negates the minimum int64 to itself, so it finds no factor either.
  if (value == std::numeric_limits<int64_t>::min()) return std::to_string(value);
  static constexpr std::array<std::string_view, 7> kBinarySuffixes = {"",   "Ki", "Mi", "Gi",
                                                                      "Ti", "Pi", "Ei"};
  int power = RemoveFactors(value, 1024);  // at most 6: 1024^7 exceeds int64
  return std::to_string(value) + std::string(kBinarySuffixes[power]);
}

}  // namespace base
