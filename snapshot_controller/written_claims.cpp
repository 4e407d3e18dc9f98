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

std::optional<std::string> WrittenClaims::WithFinalizer(std::string_view ns,
                                                        std::string_view name) {
  std::lock_guard lock(mu_);
  auto it = claims_.find(kube::Store<kube::PersistentVolumeClaim>::KeyOf(ns, name));
  if (it == claims_.end() || !it->second.with_finalizer) return std::nullopt;
  return it->second.json;
}

void WrittenClaims::Remember(const kube::PersistentVolumeClaim& claim, std::string json) {
  std::string key = kube::Store<kube::PersistentVolumeClaim>::KeyOf(claim);
  if (!kube::HasFinalizer(claim.metadata, kClaimAsSourceFinalizer)) {
    std::lock_guard lock(mu_);
    claims_.erase(key);
    return;
  }
  Keep(std::move(key), claim, std::move(json));
}

void WrittenClaims::RememberRead(const kube::PersistentVolumeClaim& claim, std::string json) {
  Keep(kube::Store<kube::PersistentVolumeClaim>::KeyOf(claim), claim, std::move(json));
}

void WrittenClaims::Keep(std::string key, const kube::PersistentVolumeClaim& claim,
                         std::string json) {
  std::lock_guard lock(mu_);
  if (claims_.size() >= kCapacity && !claims_.contains(key)) return;
  claims_[std::move(key)] = {claim.metadata.resource_version, std::move(json),
                             kube::HasFinalizer(claim.metadata, kClaimAsSourceFinalizer)};
}

}  // namespace snapshot_controller
