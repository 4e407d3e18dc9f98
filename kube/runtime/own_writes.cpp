#include "kube/runtime/own_writes.h"

#include <algorithm>

namespace kube {

void OwnWrites::Record(const std::string& key, std::string_view resource_version) {
  if (resource_version.empty()) return;
  std::vector<std::string>& versions = versions_[key];
  if (versions.size() == kMaxPerKey) versions.erase(versions.begin());
  versions.emplace_back(resource_version);
}

bool OwnWrites::TakeIfOwn(const std::string& key, std::string_view resource_version) {
  auto it = versions_.find(key);
  if (it == versions_.end()) return false;
  std::vector<std::string>& versions = it->second;
  auto own = std::find(versions.begin(), versions.end(), resource_version);
  if (own == versions.end()) return false;
  versions.erase(own);
  if (versions.empty()) versions_.erase(it);
  return true;
}

}  // namespace kube
