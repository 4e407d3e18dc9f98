// Small file-system helpers for the test control plane: a fresh private
// directory, and writing generated files (keys, tokens, kubeconfigs) with
// owner-only permissions. Errors name the path and the system's reason.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace testsupport {

// A new empty directory "$TMPDIR/<prefix>XXXXXX" (TMPDIR defaults to /tmp).
base::Result<std::string> MakeTempDir(std::string_view prefix);

// Creates or truncates `path`, writes `contents` and sets `mode`.
base::Status WriteFile(const std::string& path, std::string_view contents, int mode = 0600);

}  // namespace testsupport
