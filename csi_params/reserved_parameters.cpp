#include "csi_params/reserved_parameters.h"

#include <algorithm>

namespace csi_params {

base::Result<std::map<std::string, std::string>> StripReservedParameters(
    const kube::StringMap& parameters, std::span<const std::string_view> known) {
  std::map<std::string, std::string> stripped;
  for (const auto& [key, value] : parameters) {
    if (!key.starts_with(kReservedParameterPrefix)) {
      stripped.emplace(key, value);
      continue;
    }
    if (std::ranges::find(known, key) == known.end()) {
      return base::Error("found unknown parameter key \"" + key + "\" with reserved namespace " +
                         std::string(kReservedParameterPrefix));
    }
  }
  return stripped;
}

}  // namespace csi_params
