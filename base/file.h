// Whole-file reads for small configuration inputs (kubeconfig, PEM bundles,
// service-account token and namespace files). Errors name the path and the
// operating system's reason, never the file's contents.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace base {

Result<std::string> ReadFile(const std::string& path);

}  // namespace base
