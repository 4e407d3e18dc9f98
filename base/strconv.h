// Go `strconv`-compatible conversions, so flag values, error texts and log
// output read exactly as the upstream Go sidecar's do.
//
// Parse errors carry Go's message (`strconv.ParseInt: parsing "x": invalid
// syntax`) and a code telling syntax errors from range errors, because the
// flag package reports them differently ("parse error" / "value out of range").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace base {

// Error codes of the Parse* functions below.
inline constexpr int kNumErrorSyntax = 1;
inline constexpr int kNumErrorRange = 2;

// strconv.Quote: double-quoted, with Go escapes (\n, \x01, \u00a0, ...) for
// control and non-printable characters and \xNN for invalid UTF-8. Printable
// non-ASCII runes stay as they are. Deviation: Go also escapes unassigned code
// points; without Unicode tables we escape only controls, separators, format
// characters, private-use and non-characters.
std::string GoQuote(std::string_view s);

// utf8.DecodeRuneInString: the first rune of non-empty `s` and its byte
// length; invalid, overlong or surrogate encodings give (U+FFFD, 1).
char32_t DecodeRune(std::string_view s, size_t* width);

// utf8.AppendRune: appends the UTF-8 encoding of code point `r` (<= U+10FFFF).
void AppendUtf8(std::string* out, char32_t r);

// strconv.ParseBool: 1 t T TRUE true True 0 f F FALSE false False.
Result<bool> ParseBool(std::string_view s);

// strconv.ParseInt / ParseUint. `base` 0 means Go literal syntax: 0x/0o/0b
// prefixes, a leading 0 for octal, and `_` between digits. `bit_size` is 1..64.
Result<int64_t> ParseInt(std::string_view s, int base, int bit_size);
Result<uint64_t> ParseUint(std::string_view s, int base, int bit_size);

// strconv.ParseFloat(s, 64): decimal and hex (0x1p-2) forms, `_` separators,
// inf/infinity/nan in any case. Overflow is a range error; underflow is not.
Result<double> ParseFloat(std::string_view s);

// strconv.FormatFloat(f, fmt, -1, 64) — shortest round-trip digits — for fmt
// 'g' (%v, flag defaults), 'f' (zap's JSON numbers) and 'e' (`1e-07`).
std::string FormatFloat(double f, char fmt);

}  // namespace base
