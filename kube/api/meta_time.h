// metav1.Time as the API writes it: RFC 3339 in UTC with second precision
// (e.g. "2023-11-14T22:13:20Z"), for timestamps in objects we write; and any
// RFC 3339 timestamp read back (MicroTime's fractions, numeric offsets).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kube {

std::string FormatMetaTime(std::chrono::system_clock::time_point time);

// Parses an RFC 3339 timestamp ("2026-11-22T14:12:40Z", fractional seconds
// and numeric offsets allowed); nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> ParseMetaTime(std::string_view text);

}  // namespace kube
