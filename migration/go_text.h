// How Go prints and parses the strings upstream's translation texts are made
// of, so that our error messages and partition parsing match them
// (docs/migration.md §8.4).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "base/result.h"

namespace migration {

// A string set printed with %v: "map[a:{} b:{}]", keys in order.
std::string GoSetString(const std::set<std::string>& items);

// `s` printed with %q or %#v: in double quotes, with \", \\ and the C escapes
// (\a \b \f \n \r \t \v); other control bytes and DEL as \xNN. Bytes from
// 0x80 are kept as they are (Go escapes only invalid or unprintable UTF-8).
std::string GoQuote(std::string_view s);

// strconv.Atoi(s) narrowed to int32 as a Go conversion does (mod 2^32): an
// optional sign and decimal digits. Errors, as Go words them:
// `strconv.Atoi: parsing "<s>": invalid syntax` and `...: value out of range`
// (outside int64).
base::Result<int32_t> GoAtoiInt32(std::string_view s);

}  // namespace migration
