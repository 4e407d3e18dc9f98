#include "base/duration.h"

#include <cstdint>

#include "base/ascii.h"

namespace base {
namespace {

constexpr uint64_t kNanosecond = 1;
constexpr uint64_t kMicrosecond = 1000 * kNanosecond;
constexpr uint64_t kMillisecond = 1000 * kMicrosecond;
constexpr uint64_t kSecond = 1000 * kMillisecond;
constexpr uint64_t kMinute = 60 * kSecond;
constexpr uint64_t kHour = 60 * kMinute;
constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;  // |min int64|

// The time package's own quoting (not strconv.Quote): non-ASCII and control
// bytes as \xNN, `"` and `\` backslashed.
std::string TimeQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    } else {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(static_cast<char>(c));
    }
  }
  return out + "\"";
}

uint64_t UnitNanos(std::string_view unit) {
  if (unit == "ns") return kNanosecond;
  if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs") return kMicrosecond;
  if (unit == "ms") return kMillisecond;
  if (unit == "s") return kSecond;
  if (unit == "m") return kMinute;
  if (unit == "h") return kHour;
  return 0;
}

// Consumes leading digits into *value; false on overflow past 2^63.
bool ConsumeInt(std::string_view* s, uint64_t* value) {
  uint64_t x = 0;
  size_t i = 0;
  for (; i < s->size() && IsAsciiDigit((*s)[i]); ++i) {
    if (x > kMaxMagnitude / 10) return false;
    x = x * 10 + ((*s)[i] - '0');
    if (x > kMaxMagnitude) return false;
  }
  s->remove_prefix(i);
  *value = x;
  return true;
}

// Consumes leading fraction digits; beyond uint64 precision further digits
// are skipped, as Go does.
void ConsumeFraction(std::string_view* s, uint64_t* value, double* scale) {
  uint64_t x = 0;
  double sc = 1;
  bool overflow = false;
  size_t i = 0;
  for (; i < s->size() && IsAsciiDigit((*s)[i]); ++i) {
    if (overflow) continue;
    if (x > (kMaxMagnitude - 1) / 10) {
      overflow = true;
      continue;
    }
    uint64_t y = x * 10 + ((*s)[i] - '0');
    if (y > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    x = y;
    sc *= 10;
  }
  s->remove_prefix(i);
  *value = x;
  *scale = sc;
}

// Writes v/10^prec's fraction (without trailing zeros, and without the dot
// if it is zero) in front of *pos; returns v/10^prec.
uint64_t FormatFraction(char* buf, int* pos, uint64_t v, int prec) {
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    int digit = static_cast<int>(v % 10);
    print = print || digit != 0;
    if (print) buf[--*pos] = static_cast<char>('0' + digit);
    v /= 10;
  }
  if (print) buf[--*pos] = '.';
  return v;
}

void FormatInt(char* buf, int* pos, uint64_t v) {
  do {
    buf[--*pos] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
}

}  // namespace

Result<std::chrono::nanoseconds> ParseDuration(std::string_view s) {
  const std::string_view original = s;
  auto invalid = [&] { return Error("time: invalid duration " + TimeQuote(original)); };
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return invalid();
  uint64_t total = 0;
  while (!s.empty()) {
    if (s[0] != '.' && !IsAsciiDigit(s[0])) return invalid();
    size_t before = s.size();
    uint64_t whole;
    if (!ConsumeInt(&s, &whole)) return invalid();
    bool saw_whole = s.size() != before;
    uint64_t fraction = 0;
    double scale = 1;
    bool saw_fraction = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      before = s.size();
      ConsumeFraction(&s, &fraction, &scale);
      saw_fraction = s.size() != before;
    }
    if (!saw_whole && !saw_fraction) return invalid();
    size_t unit_len = 0;
    while (unit_len < s.size() && s[unit_len] != '.' && !IsAsciiDigit(s[unit_len])) ++unit_len;
    if (unit_len == 0) return Error("time: missing unit in duration " + TimeQuote(original));
    std::string_view unit = s.substr(0, unit_len);
    s.remove_prefix(unit_len);
    uint64_t unit_nanos = UnitNanos(unit);
    if (unit_nanos == 0) {
      return Error("time: unknown unit " + TimeQuote(unit) + " in duration " + TimeQuote(original));
    }
    if (whole > kMaxMagnitude / unit_nanos) return invalid();
    whole *= unit_nanos;
    if (fraction > 0) {
      // A double is exact enough here: the fraction of an hour is < 3.6e12 ns.
      whole += static_cast<uint64_t>(static_cast<double>(fraction) *
                                     (static_cast<double>(unit_nanos) / scale));
      if (whole > kMaxMagnitude) return invalid();
    }
    total += whole;
    if (total > kMaxMagnitude) return invalid();
  }
  if (negative) return std::chrono::nanoseconds(static_cast<int64_t>(~total + 1));
  if (total > kMaxMagnitude - 1) return invalid();
  return std::chrono::nanoseconds(static_cast<int64_t>(total));
}

std::string FormatDuration(std::chrono::nanoseconds d) {
  char buf[32];
  int pos = sizeof(buf);
  const bool negative = d.count() < 0;
  uint64_t u = static_cast<uint64_t>(d.count());
  if (negative) u = ~u + 1;
  if (u < kSecond) {
    // Below a second Go picks the largest unit that keeps an integer part.
    int prec = 0;
    buf[--pos] = 's';
    if (u == 0) {
      buf[--pos] = '0';
      return std::string(buf + pos, sizeof(buf) - pos);
    } else if (u < kMicrosecond) {
      buf[--pos] = 'n';
    } else if (u < kMillisecond) {
      prec = 3;
      buf[--pos] = '\xb5';  // "µ" is 0xC2 0xB5 in UTF-8
      buf[--pos] = '\xc2';
    } else {
      prec = 6;
      buf[--pos] = 'm';
    }
    u = FormatFraction(buf, &pos, u, prec);
    FormatInt(buf, &pos, u);
  } else {
    buf[--pos] = 's';
    u = FormatFraction(buf, &pos, u, 9);
    FormatInt(buf, &pos, u % 60);
    u /= 60;
    if (u > 0) {
      buf[--pos] = 'm';
      FormatInt(buf, &pos, u % 60);
      u /= 60;
      if (u > 0) {
        // Hours are the largest unit because days vary in length.
        buf[--pos] = 'h';
        FormatInt(buf, &pos, u);
      }
    }
  }
  if (negative) buf[--pos] = '-';
  return std::string(buf + pos, sizeof(buf) - pos);
}

}  // namespace base
