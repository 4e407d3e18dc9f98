#include "snapshotter/names.h"

#include <algorithm>

#include "csi_params/uid_names.h"
#include "kube/api/names.h"

namespace snapshotter {

std::string SnapshotName(std::string_view prefix, std::string_view uid, int uuid_length) {
  return csi_params::PrefixedUidName(prefix, uid, uuid_length);
}

std::string LeaseNameFor(std::string_view driver) {
  std::string name = "external-snapshotter-leader-" + std::string(driver);
  std::replace(name.begin(), name.end(), '/', '-');
  return kube::SanitizeName(name);
}

}  // namespace snapshotter
