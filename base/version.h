// The version of the build (`git describe` at configure time, "unknown"
// outside a git checkout), printed by --version and sent in the user agent.
// It lives in one generated translation unit, so a new commit recompiles that
// file only, not every file of the project.
#pragma once

#include <string_view>

namespace base {

std::string_view Version();

}  // namespace base
