#include "snapshotter/names.h"

#include <algorithm>

#include "kube/api/names.h"

namespace snapshotter {

std::string SnapshotName(std::string_view prefix, std::string_view uid, int uuid_length) {
  std::string name(prefix);
  name += '-';
  if (uuid_length < 0) return name.append(uid);
  std::string dashless(uid);
  std::erase(dashless, '-');
  dashless.resize(std::min(dashless.size(), static_cast<size_t>(uuid_length)));
  return name + dashless;
}

std::string LeaseNameFor(std::string_view driver) {
  std::string name = "external-snapshotter-leader-" + std::string(driver);
  std::replace(name.begin(), name.end(), '/', '-');
  return kube::SanitizeName(name);
}

}  // namespace snapshotter
