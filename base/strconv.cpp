#include "base/strconv.h"

#include <locale.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "base/ascii.h"

namespace base {
namespace {

constexpr char kLowerHex[] = "0123456789abcdef";
constexpr char32_t kRuneError = 0xFFFD;

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

char32_t DecodeRune(std::string_view s, size_t* width) {
  auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  auto cont = [&](size_t i, unsigned char lo, unsigned char hi) {
    return i < s.size() && b(i) >= lo && b(i) <= hi;
  };
  unsigned char b0 = b(0);
  *width = 1;
  if (b0 < 0x80) return b0;
  if (b0 >= 0xC2 && b0 <= 0xDF && cont(1, 0x80, 0xBF)) {
    *width = 2;
    return ((b0 & 0x1F) << 6) | (b(1) & 0x3F);
  }
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    unsigned char lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned char hi = b0 == 0xED ? 0x9F : 0xBF;
    if (cont(1, lo, hi) && cont(2, 0x80, 0xBF)) {
      *width = 3;
      return ((b0 & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    }
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    unsigned char lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = b0 == 0xF4 ? 0x8F : 0xBF;
    if (cont(1, lo, hi) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF)) {
      *width = 4;
      return ((b0 & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    }
  }
  return kRuneError;
}

void AppendUtf8(std::string* out, char32_t r) {
  if (r < 0x80) {
    out->push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (r >> 6)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (r >> 12)));
    out->push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (r >> 18)));
    out->push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

namespace {

// Non-ASCII runes Go's unicode.IsPrint rejects, as far as a table-free check
// can tell (see the header).
bool IsPrintNonAscii(char32_t r) {
  return !((r >= 0x80 && r <= 0xA0) || r == 0xAD || r == 0x061C || r == 0x180E ||
           (r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F) ||
           (r >= 0x205F && r <= 0x206F) || r == 0x3000 || (r >= 0xE000 && r <= 0xF8FF) ||
           r == 0xFEFF || (r >= 0xFFF0 && r <= 0xFFFB) || (r & 0xFFFE) == 0xFFFE ||
           (r >= 0xE0000 && r <= 0xE007F) || r >= 0xF0000);
}

void AppendHex(std::string* out, const char* prefix, uint32_t v, int digits) {
  out->append(prefix);
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    out->push_back(kLowerHex[(v >> shift) & 0xF]);
}

void AppendEscapedRune(std::string* out, char32_t r) {
  switch (r) {
    case '"':
      *out += "\\\"";
      return;
    case '\\':
      *out += "\\\\";
      return;
    case '\a':
      *out += "\\a";
      return;
    case '\b':
      *out += "\\b";
      return;
    case '\f':
      *out += "\\f";
      return;
    case '\n':
      *out += "\\n";
      return;
    case '\r':
      *out += "\\r";
      return;
    case '\t':
      *out += "\\t";
      return;
    case '\v':
      *out += "\\v";
      return;
    default:
      break;
  }
  if (r < 0x20 || r == 0x7F) {
    AppendHex(out, "\\x", r, 2);
  } else if (r < 0x80 || IsPrintNonAscii(r)) {
    AppendUtf8(out, r);
  } else if (r < 0x10000) {
    AppendHex(out, "\\u", r, 4);
  } else {
    AppendHex(out, "\\U", r, 8);
  }
}

Error NumError(const char* fn, std::string_view s, int code) {
  return Error::WithCode(code,
                         std::string("strconv.") + fn + ": parsing " + GoQuote(s) + ": " +
                             (code == kNumErrorRange ? "value out of range" : "invalid syntax"));
}

// Go's rule for `_` in number literals: only between digits, or between a
// base prefix and a digit.
bool UnderscoreOk(std::string_view s) {
  char saw = '^';  // ^ start, 0 digit or prefix, _ underscore, ! other
  size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (Lower(s[1]) == 'b' || Lower(s[1]) == 'o' || Lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = Lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (IsAsciiDigit(c) || (hex && Lower(c) >= 'a' && Lower(c) <= 'f')) {
      saw = '0';
    } else if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
    } else {
      if (saw == '_') return false;
      saw = '!';
    }
  }
  return saw != '_';
}

// Case-insensitive length of the common prefix of s and word.
size_t CommonPrefixIgnoreCase(std::string_view s, std::string_view word) {
  size_t n = 0;
  while (n < s.size() && n < word.size() && Lower(s[n]) == word[n]) ++n;
  return n;
}

// Go's special(): [+-]inf, [+-]infinity, nan. Returns false if s is not
// exactly one of them.
bool ParseSpecialFloat(std::string_view s, double* out) {
  if (s.empty()) return false;
  double sign = 1;
  std::string_view rest = s;
  if (s[0] == '+' || s[0] == '-') {
    sign = s[0] == '-' ? -1 : 1;
    rest.remove_prefix(1);
  } else if (Lower(s[0]) == 'n') {
    if (s.size() == 3 && CommonPrefixIgnoreCase(s, "nan") == 3) {
      *out = std::numeric_limits<double>::quiet_NaN();
      return true;
    }
    return false;
  }
  size_t n = CommonPrefixIgnoreCase(rest, "infinity");
  if ((n == 3 || n == 8) && n == rest.size()) {
    *out = sign * std::numeric_limits<double>::infinity();
    return true;
  }
  return false;
}

// Go's readFloat grammar: sign, optional 0x prefix, digits with at most one
// dot, exponent (mandatory `p` for hex), underscores per UnderscoreOk.
bool IsFloatSyntax(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool hex = false;
  if (i + 2 < s.size() && s[i] == '0' && Lower(s[i + 1]) == 'x') {
    hex = true;
    i += 2;
  }
  bool saw_dot = false, saw_digits = false, underscores = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      underscores = true;
    } else if (c == '.') {
      if (saw_dot) break;
      saw_dot = true;
    } else if (IsAsciiDigit(c) || (hex && Lower(c) >= 'a' && Lower(c) <= 'f')) {
      saw_digits = true;
    } else {
      break;
    }
  }
  if (!saw_digits) return false;
  if (i < s.size() && Lower(s[i]) == (hex ? 'p' : 'e')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size() || !IsAsciiDigit(s[i])) return false;
    for (; i < s.size() && (IsAsciiDigit(s[i]) || s[i] == '_'); ++i) underscores |= s[i] == '_';
  } else if (hex) {
    return false;
  }
  if (underscores && !UnderscoreOk(s.substr(0, i))) return false;
  return i == s.size();
}

// strtod in the "C" locale, whatever the process locale is.
double StrtodC(const std::string& s) {
  static locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
  return strtod_l(s.c_str(), nullptr, c_locale);
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  while (!s.empty()) {
    size_t width;
    char32_t r = DecodeRune(s, &width);
    if (r == kRuneError && width == 1) {
      AppendHex(&out, "\\x", static_cast<unsigned char>(s[0]), 2);
    } else {
      AppendEscapedRune(&out, r);
    }
    s.remove_prefix(width);
  }
  out.push_back('"');
  return out;
}

Result<bool> ParseBool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return false;
  }
  return NumError("ParseBool", s, kNumErrorSyntax);
}

Result<uint64_t> ParseUint(std::string_view s, int base, int bit_size) {
  constexpr const char* kFn = "ParseUint";
  if (s.empty()) return NumError(kFn, s, kNumErrorSyntax);
  const std::string_view original = s;
  const bool base0 = base == 0;
  if (base0) {
    base = 10;
    if (s[0] == '0') {
      char p = s.size() >= 3 ? Lower(s[1]) : 0;
      base = p == 'b' ? 2 : p == 'o' ? 8 : p == 'x' ? 16 : 8;
      s.remove_prefix(base == 8 && p != 'o' ? 1 : 2);
    }
  }
  if (bit_size <= 0 || bit_size > 64) bit_size = 64;
  const uint64_t max_value =
      bit_size == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bit_size) - 1;
  const uint64_t cutoff = std::numeric_limits<uint64_t>::max() / base + 1;
  bool underscores = false;
  uint64_t n = 0;
  for (char c : s) {
    int digit;
    if (c == '_' && base0) {
      underscores = true;
      continue;
    } else if (IsAsciiDigit(c)) {
      digit = c - '0';
    } else if (Lower(c) >= 'a' && Lower(c) <= 'z') {
      digit = Lower(c) - 'a' + 10;
    } else {
      return NumError(kFn, original, kNumErrorSyntax);
    }
    if (digit >= base) return NumError(kFn, original, kNumErrorSyntax);
    if (n >= cutoff) return NumError(kFn, original, kNumErrorRange);
    n *= base;
    uint64_t next = n + digit;
    if (next < n || next > max_value) return NumError(kFn, original, kNumErrorRange);
    n = next;
  }
  if (underscores && !UnderscoreOk(original)) return NumError(kFn, original, kNumErrorSyntax);
  return n;
}

Result<int64_t> ParseInt(std::string_view s, int base, int bit_size) {
  constexpr const char* kFn = "ParseInt";
  if (s.empty()) return NumError(kFn, s, kNumErrorSyntax);
  std::string_view digits = s;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    digits.remove_prefix(1);
  }
  if (bit_size <= 0 || bit_size > 64) bit_size = 64;
  auto magnitude = ParseUint(digits, base, bit_size);
  if (!magnitude.ok() && magnitude.error().code != kNumErrorRange) {
    return NumError(kFn, s, magnitude.error().code);
  }
  const uint64_t cutoff = uint64_t{1} << (bit_size - 1);
  if (!magnitude.ok() || (!negative && *magnitude >= cutoff) || (negative && *magnitude > cutoff)) {
    return NumError(kFn, s, kNumErrorRange);
  }
  // Two's complement negation also covers -cutoff, which has no positive twin.
  return static_cast<int64_t>(negative ? ~*magnitude + 1 : *magnitude);
}

Result<double> ParseFloat(std::string_view s) {
  double special;
  if (ParseSpecialFloat(s, &special)) return special;
  if (!IsFloatSyntax(s)) return NumError("ParseFloat", s, kNumErrorSyntax);
  std::string cleaned;
  cleaned.reserve(s.size());
  for (char c : s) {
    if (c != '_') cleaned.push_back(c);
  }
  double value = StrtodC(cleaned);
  if (std::isinf(value)) return NumError("ParseFloat", s, kNumErrorRange);
  return value;
}

std::string FormatFloat(double f, char fmt) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  char buf[400];
  if (fmt == 'e' || fmt == 'g') {
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf) - 1, f, std::chars_format::scientific);
    *end = '\0';
    std::string_view sci(buf, end - buf);
    int exponent = std::atoi(buf + sci.find('e') + 1);
    // For shortest output Go's %g uses the exponent form outside [1e-4, 1e6).
    if (fmt == 'e' || exponent < -4 || exponent >= 6) return std::string(sci);
  }
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::fixed);
  return std::string(buf, end - buf);
}

}  // namespace base
