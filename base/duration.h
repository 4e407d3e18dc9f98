// Go `time.Duration` text form: what every duration flag accepts and how
// durations are printed in --help defaults and logs.
//
// ParseDuration accepts exactly what time.ParseDuration does — a signed
// sequence of decimal numbers with units ns, us, µs (U+00B5 or U+03BC), ms,
// s, m, h (`300ms`, `-1.5h`, `2h45m`); a bare `0` is the only unitless value —
// and fails with Go's error texts (`time: invalid duration "x"`,
// `time: missing unit in duration "5"`, `time: unknown unit "d" in duration
// "5d"`). Values beyond ±2^63-1 ns are invalid.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "base/result.h"

namespace base {

Result<std::chrono::nanoseconds> ParseDuration(std::string_view s);

// Duration.String(): `1h0m0s`, `1m30s`, `1.5s`, `100ms`, `1.5µs`, `0s`.
std::string FormatDuration(std::chrono::nanoseconds d);

}  // namespace base
