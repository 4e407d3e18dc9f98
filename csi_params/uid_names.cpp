#include "csi_params/uid_names.h"

#include <algorithm>

namespace csi_params {

std::string PrefixedUidName(std::string_view prefix, std::string_view uid, int uuid_length) {
  std::string name(prefix);
  name += '-';
  if (uuid_length < 0) return name.append(uid);
  std::string dashless(uid);
  std::erase(dashless, '-');
  dashless.resize(std::min(dashless.size(), static_cast<size_t>(uuid_length)));
  return name + dashless;
}

}  // namespace csi_params
