#include "snapshot_controller/written_claims.h"

#include <utility>

#include "kube/api/metadata_patch.h"
#include "kube/runtime/store.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {

std::optional<std::string> WrittenClaims::Take(std::string_view ns, std::string_view name,
                                               std::string_view resource_version) {
  std::lock_guard lock(mu_);
  auto it = claims_.find(kube::Store<kube::PersistentVolumeClaim>::KeyOf(ns, name));
  if (it == claims_.end()) return std::nullopt;
  Written written = std::move(it->second);
  claims_.erase(it);
  if (written.resource_version != resource_version) return std::nullopt;
  return std::move(written.json);
}

void WrittenClaims::Remember(const kube::PersistentVolumeClaim& claim, std::string json) {
  std::string key = kube::Store<kube::PersistentVolumeClaim>::KeyOf(claim);
  std::lock_guard lock(mu_);
  if (!kube::HasFinalizer(claim.metadata, kClaimAsSourceFinalizer)) {
    claims_.erase(key);
    return;
  }
  if (claims_.size() >= kCapacity && !claims_.contains(key)) return;
  claims_[std::move(key)] = {claim.metadata.resource_version, std::move(json)};
}

}  // namespace snapshot_controller
