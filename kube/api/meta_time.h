// The time formats of the API. Timestamps we write are RFC 3339 in UTC:
// metav1.Time with second precision ("2023-11-14T22:13:20Z", e.g. Event and
// VolumeError times) or metav1.MicroTime with 6 fractional digits
// ("2023-11-14T22:13:20.123456Z", e.g. Lease times). Any RFC 3339 timestamp
// is read back (fractions, numeric offsets).
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace kube {

std::string FormatMetaTime(std::chrono::system_clock::time_point time);
std::string FormatMicroTime(std::chrono::system_clock::time_point time);

// Parses an RFC 3339 timestamp ("2026-11-22T14:12:40Z", fractional seconds
// and numeric offsets allowed); nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> ParseMetaTime(std::string_view text);
// Seconds since the epoch as RFC 3339 in UTC ("2026-11-22T14:12:40Z"), exact
// over years 1-9999.
std::string FormatUnixSeconds(int64_t seconds);

// MetaTime: a metav1.Time the way cached objects keep it (metadata's
// creationTimestamp and deletionTimestamp): whole seconds since the epoch in
// 8 bytes, where its RFC 3339 text took a 32-byte string and a heap block per
// object. Empty is unset (Go's nil): decoded from an absent or null member,
// omitted when encoding. The JSON form has whole seconds only, so nothing
// is lost. Text assigns and compares ("" is empty), as with the string it
// replaces.
class MetaTime {
 public:
  MetaTime() = default;
  static MetaTime FromUnixSeconds(int64_t seconds) { return MetaTime(seconds); }
  // "" gives an empty MetaTime; nullopt when `text` is not RFC 3339. Exact
  // over years 0-9999 (a system_clock time point spans only 1678-2262).
  static std::optional<MetaTime> Parse(std::string_view text);

  // Throws std::invalid_argument for text that is neither "" nor RFC 3339.
  MetaTime& operator=(std::string_view text);

  bool empty() const { return seconds_ == kUnset; }
  void clear() { seconds_ = kUnset; }
  // Only when !empty().
  int64_t unix_seconds() const { return seconds_; }
  // "" when empty.
  std::string str() const;

  bool operator==(const MetaTime&) const = default;
  friend bool operator==(const MetaTime& time, std::string_view text) {
    std::optional<MetaTime> parsed = Parse(text);
    return parsed && *parsed == time;
  }

 private:
  static constexpr int64_t kUnset = std::numeric_limits<int64_t>::min();
  explicit MetaTime(int64_t seconds) : seconds_(seconds) {}

  int64_t seconds_ = kUnset;
};

// MetaTime::Parse for the codecs: malformed text throws a DecodeError.
MetaTime DecodeMetaTime(std::string_view text);

// For test failure messages.
std::ostream& operator<<(std::ostream& out, const MetaTime& time);

}  // namespace kube
