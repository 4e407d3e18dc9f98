// ASCII letter case, as Go's strings.ToLower and strings.EqualFold treat the
// keys and kinds the translators compare (docs/migration.md §8.1): parameter
// keys and attribute names are ASCII in practice.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace migration {

inline char LowerAsciiChar(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

inline std::string LowerAscii(std::string_view s) {
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(), LowerAsciiChar);
  return lower;
}

inline bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return LowerAsciiChar(x) == LowerAsciiChar(y); });
}

}  // namespace migration
