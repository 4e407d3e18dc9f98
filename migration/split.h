// String splitting with Go's strings.Split semantics, which the translation
// rules are written in terms of.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace migration {

// Splits `s` around every `separator` (non-empty): "" gives {""}, "a__" gives
// {"a", ""}.
std::vector<std::string> Split(std::string_view s, std::string_view separator);

}  // namespace migration
