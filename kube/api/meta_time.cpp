#include "kube/api/meta_time.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cstdint>
#include <ostream>
#include <stdexcept>

#include "kube/api/decode_error.h"

namespace kube {
namespace {

// Reads exactly `digits` decimal digits at `pos`, advancing it.
std::optional<int> Digits(std::string_view text, size_t& pos, size_t digits) {
  if (pos + digits > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = 0; i < digits; ++i) {
    char c = text[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += digits;
  return value;
}

bool Expect(std::string_view text, size_t& pos, std::string_view chars) {
  if (pos >= text.size() || chars.find(text[pos]) == std::string_view::npos) return false;
  ++pos;
  return true;
}

}  // namespace

std::string FormatMetaTime(std::chrono::system_clock::time_point time) {
  // Whole seconds rounded down, as Go's time formatting does before 1970 too
  // (to_time_t alone would round towards 1970).
  auto seconds = std::chrono::floor<std::chrono::seconds>(time);
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(seconds)));
}

std::string FormatMicroTime(std::chrono::system_clock::time_point time) {
  auto micros = std::chrono::time_point_cast<std::chrono::microseconds>(time);
  auto seconds = std::chrono::floor<std::chrono::seconds>(micros);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:06d}Z",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(seconds)),
                     (micros - seconds).count());
}

namespace {

// Seconds since the epoch and the fraction of the next second of RFC 3339 text.
struct UnixTime {
  int64_t seconds;
  std::chrono::nanoseconds fraction;
};

std::optional<UnixTime> ParseUnixTime(std::string_view text) {
  using namespace std::chrono;
  size_t pos = 0;
  auto year = Digits(text, pos, 4);
  if (!year || !Expect(text, pos, "-")) return std::nullopt;
  auto month = Digits(text, pos, 2);
  if (!month || !Expect(text, pos, "-")) return std::nullopt;
  auto day = Digits(text, pos, 2);
  if (!day || !Expect(text, pos, "Tt")) return std::nullopt;
  auto hour = Digits(text, pos, 2);
  if (!hour || !Expect(text, pos, ":")) return std::nullopt;
  auto minute = Digits(text, pos, 2);
  if (!minute || !Expect(text, pos, ":")) return std::nullopt;
  auto second = Digits(text, pos, 2);
  if (!second) return std::nullopt;
  nanoseconds fraction{0};
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int64_t scale = 100000000;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, scale /= 10) {
      fraction += nanoseconds((text[pos] - '0') * scale);
    }
  }
  seconds offset{0};
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int sign = text[pos++] == '-' ? -1 : 1;
    auto offset_hours = Digits(text, pos, 2);
    if (!offset_hours || !Expect(text, pos, ":")) return std::nullopt;
    auto offset_minutes = Digits(text, pos, 2);
    if (!offset_minutes) return std::nullopt;
    offset = sign * (hours(*offset_hours) + minutes(*offset_minutes));
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  year_month_day date{std::chrono::year(*year), std::chrono::month(*month), std::chrono::day(*day)};
  if (!date.ok() || *hour > 23 || *minute > 59 || *second > 60) return std::nullopt;
  seconds whole = sys_days(date).time_since_epoch() + hours(*hour) + minutes(*minute) +
                  seconds(*second) - offset;
  return UnixTime{whole.count(), fraction};
}

std::string NotRfc3339(std::string_view text) {
  return "not an RFC 3339 time: \"" + std::string(text) + "\"";
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> ParseMetaTime(std::string_view text) {
  using namespace std::chrono;
  std::optional<UnixTime> parsed = ParseUnixTime(text);
  if (!parsed) return std::nullopt;
  return system_clock::time_point(
      duration_cast<system_clock::duration>(seconds(parsed->seconds) + parsed->fraction));
}

// Days to civil date: H. Hinnant's algorithm, exact over the whole range.
std::string FormatUnixSeconds(int64_t seconds) {
  int64_t days = seconds / 86400;
  int64_t rest = seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", year, month, day, rest / 3600,
                     rest / 60 % 60, rest % 60);
}

std::optional<MetaTime> MetaTime::Parse(std::string_view text) {
  if (text.empty()) return MetaTime();
  std::optional<UnixTime> parsed = ParseUnixTime(text);
  if (!parsed) return std::nullopt;
  return MetaTime(parsed->seconds);
}

MetaTime& MetaTime::operator=(std::string_view text) {
  std::optional<MetaTime> parsed = Parse(text);
  if (!parsed) throw std::invalid_argument(NotRfc3339(text));
  return *this = *parsed;
}

MetaTime DecodeMetaTime(std::string_view text) {
  std::optional<MetaTime> parsed = MetaTime::Parse(text);
  if (!parsed) throw DecodeError(NotRfc3339(text));
  return *parsed;
}

std::string MetaTime::str() const { return empty() ? std::string() : FormatUnixSeconds(seconds_); }

std::ostream& operator<<(std::ostream& out, const MetaTime& time) {
  return out << '"' << time.str() << '"';
}

}  // namespace kube
