// The time formats of the API. Timestamps we write are RFC 3339 in UTC:
// metav1.Time with second precision ("2023-11-14T22:13:20Z", e.g. Event and
// VolumeError times) or metav1.MicroTime with 6 fractional digits
// ("2023-11-14T22:13:20.123456Z", e.g. Lease times). Any RFC 3339 timestamp
// is read back (fractions, numeric offsets).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kube {

std::string FormatMetaTime(std::chrono::system_clock::time_point time);
std::string FormatMicroTime(std::chrono::system_clock::time_point time);

// Parses an RFC 3339 timestamp ("2026-11-22T14:12:40Z", fractional seconds
// and numeric offsets allowed); nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> ParseMetaTime(std::string_view text);

}  // namespace kube
