#include "base/quantity.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>

#include "base/ascii.h"

namespace base {
namespace {

constexpr const char* kQuantityFormatError =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

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
  for (; i < s.size() && (IsAsciiDigit(s[i]) || (s[i] == '.' && !saw_dot)); ++i) {
    saw_dot = saw_dot || s[i] == '.';
    zero = zero && (s[i] == '0' || s[i] == '.');
  }
  std::string_view suffix = s.substr(i);
  size_t letters = suffix.find_first_not_of("eEinumkKMGTP");
  std::string_view exponent = letters == std::string_view::npos ? "" : suffix.substr(letters);
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
  for (char c : exponent) {
    if (!IsAsciiDigit(c)) return Error(kQuantityFormatError);
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

namespace {

// A suffix as a multiplier: base^exponent (base 2 or 10).
struct Scale {
  int base;
  int exponent;
};

std::optional<Scale> ScaleOf(std::string_view suffix) {
  static constexpr std::pair<std::string_view, Scale> kScales[] = {
      {"", {10, 0}},   {"n", {10, -9}}, {"u", {10, -6}}, {"m", {10, -3}},
      {"k", {10, 3}},  {"M", {10, 6}},  {"G", {10, 9}},  {"T", {10, 12}},
      {"P", {10, 15}}, {"E", {10, 18}}, {"Ki", {2, 10}}, {"Mi", {2, 20}},
      {"Gi", {2, 30}}, {"Ti", {2, 40}}, {"Pi", {2, 50}}, {"Ei", {2, 60}}};
  for (const auto& [known, scale] : kScales) {
    if (suffix == known) return scale;
  }
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    int exponent = 0;
    auto [end, ec] = std::from_chars(suffix.data() + (suffix[1] == '+' ? 2 : 1),
                                     suffix.data() + suffix.size(), exponent);
    if (ec == std::errc() && end == suffix.data() + suffix.size()) return Scale{10, exponent};
  }
  return std::nullopt;
}

}  // namespace

Result<int64_t> QuantityAsInt64(std::string_view text) {
  if (Result<bool> valid = QuantityIsZero(text); !valid.ok()) return valid.error();
  bool negative = text[0] == '-';
  if (text[0] == '+' || text[0] == '-') text.remove_prefix(1);
  // The number as digits / 10^fraction_digits, exactly.
  __int128 digits = 0;
  int fraction_digits = 0;
  bool in_fraction = false;
  size_t i = 0;
  for (; i < text.size() && (IsAsciiDigit(text[i]) || text[i] == '.'); ++i) {
    if (text[i] == '.') {
      in_fraction = true;
      continue;
    }
    if (digits > (__int128(1) << 100))
      return Error("quantity " + std::string(text) + " is too large");
    digits = digits * 10 + (text[i] - '0');
    if (in_fraction) ++fraction_digits;
  }
  std::optional<Scale> scale = ScaleOf(text.substr(i));
  if (!scale) return Error("unable to parse quantity's suffix");
  __int128 numerator = digits;
  __int128 denominator = 1;
  for (int f = 0; f < fraction_digits; ++f) denominator *= 10;
  const __int128 limit = std::numeric_limits<int64_t>::max();
  for (int e = 0; e < std::abs(scale->exponent); ++e) {
    if (scale->exponent > 0) {
      numerator *= scale->base;
      if (numerator / denominator > limit)
        return Error("quantity is too large: " + std::string(text));
    } else {
      denominator *= scale->base;
      if (denominator > (__int128(1) << 100)) break;  // rounds up to 1 (or 0)
    }
  }
  __int128 value = numerator / denominator;
  if (numerator % denominator != 0) value += negative ? 0 : 1;  // Value() rounds up
  if (value > limit) return Error("quantity is too large: " + std::string(text));
  return static_cast<int64_t>(negative ? -value : value);
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
