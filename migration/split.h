// String splitting and joining with Go's strings.Split and strings.Join
// semantics, which the translation rules are written in terms of.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace migration {

// Splits `s` around every `separator` (non-empty): "" gives {""}, "a__" gives
// {"a", ""}.
std::vector<std::string> Split(std::string_view s, std::string_view separator);

// `parts` with `separator` between them: {} gives "".
std::string Join(std::span<const std::string> parts, std::string_view separator);

}  // namespace migration
