// Whole-file reads for small configuration inputs (kubeconfig, PEM bundles,
// service-account token and namespace files). Errors name the path and the
// operating system's reason, never the file's contents.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace base {

Result<std::string> ReadFile(const std::string& path);

// Strips leading and trailing ASCII whitespace, like Go's strings.TrimSpace
// does for the token and namespace files Kubernetes mounts (they may end in a
// newline).
std::string_view TrimSpace(std::string_view s);

}  // namespace base
