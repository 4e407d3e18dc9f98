#include "snapshot_controller/claim_finalizer.h"

#include <algorithm>
#include <string>

#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"

namespace snapshot_controller {
namespace {

// Upstream retries a conflicting claim update this many times in all.
constexpr int kUpdateAttempts = 5;

base::Error UpdateFailed(const std::string& name, const base::Error& error) {
  return error.Wrap("snapshot controller failed to update " + name + " on API server");
}

bool IsReady(const kube::VolumeSnapshot& snapshot) {
  return snapshot.status && snapshot.status->ready_to_use.value_or(false);
}

// Edits `claim` and replaces it, from a fresh read after a conflict. `edit`
// answers false when the claim needs no write, or an error that ends it.
template <class Edit>
base::Status UpdateWithRetry(ControllerApi& api, kube::PersistentVolumeClaim claim,
                             const Edit& edit) {
  for (int attempt = 1;; ++attempt) {
    auto edited = edit(claim);
    if (!edited.ok()) return edited.error();
    if (!*edited) return base::Status::Ok();
    auto updated = api.UpdateClaimFinalizers(claim);
    if (updated.ok()) return base::Status::Ok();
    if (!kube::IsConflict(updated.error()) || attempt == kUpdateAttempts) {
      return UpdateFailed(claim.metadata.name, updated.error());
    }
    auto fresh = api.GetClaim(claim.metadata.namespace_, claim.metadata.name);
    if (!fresh.ok()) return UpdateFailed(claim.metadata.name, fresh.error());
    claim = std::move(*fresh);
  }
}

}  // namespace

base::Status ClaimFinalizer::Add(const kube::VolumeSnapshot& snapshot) {
  const auto& claim_name = snapshot.spec.source.persistent_volume_claim_name;
  if (!claim_name) return base::Status::Ok();
  auto cached = caches_.claims.Get(snapshot.metadata.namespace_, *claim_name);
  if (!cached) {
    return UpdateFailed(snapshot.metadata.name, base::Error("cannot get claim from snapshot"));
  }
  auto add = [](kube::PersistentVolumeClaim& claim) -> base::Result<bool> {
    if (kube::HasFinalizer(claim.metadata, kClaimAsSourceFinalizer)) return false;
    if (!claim.metadata.deletion_timestamp.empty()) {
      return UpdateFailed(claim.metadata.name,
                          base::Error("cannot add finalizer on claim because it is being deleted"));
    }
    claim.metadata.finalizers.emplace_back(kClaimAsSourceFinalizer);
    return true;
  };
  // The cache decides whether to write at all; the write starts from a fresh
  // read, whose JSON the PUT then sends back. A claim is often written just
  // before its snapshot is created (bound, labelled), and a cache that has
  // not seen that yet made a quarter of a snapshot stream's first PUTs
  // conflict, each costing two more reads.
  kube::PersistentVolumeClaim decided = *cached;
  auto needed = add(decided);
  if (!needed.ok()) return needed.error();
  if (!*needed) return base::Status::Ok();
  auto fresh = api_.GetClaim(cached->metadata.namespace_, cached->metadata.name);
  if (!fresh.ok()) return UpdateFailed(cached->metadata.name, fresh.error());
  return UpdateWithRetry(api_, std::move(*fresh), add);
}

base::Status ClaimFinalizer::RemoveIfUnused(const kube::VolumeSnapshot& snapshot) {
  return Remove(snapshot, /*count_snapshot=*/false);
}

base::Status ClaimFinalizer::RemoveIfNoUnreadySnapshot(const kube::VolumeSnapshot& snapshot) {
  return Remove(snapshot, /*count_snapshot=*/true);
}

base::Status ClaimFinalizer::Remove(const kube::VolumeSnapshot& snapshot, bool count_snapshot) {
  const auto& claim_name = snapshot.spec.source.persistent_volume_claim_name;
  if (!claim_name) return base::Status::Ok();
  std::optional<kube::PersistentVolumeClaim> claim =
      ProtectedClaim(snapshot.metadata.namespace_, *claim_name);
  if (!claim) return base::Status::Ok();
  if (InUse(snapshot, *claim_name, count_snapshot)) return base::Status::Ok();
  auto removed = UpdateWithRetry(api_, std::move(*claim), [](kube::PersistentVolumeClaim& claim) {
    auto& finalizers = claim.metadata.finalizers;
    auto kept = std::remove(finalizers.begin(), finalizers.end(), kClaimAsSourceFinalizer);
    if (kept == finalizers.end()) return base::Result<bool>(false);
    finalizers.erase(kept, finalizers.end());
    return base::Result<bool>(true);
  });
  // A claim deleted meanwhile needs no finalizer removed.
  if (!removed.ok() && kube::IsNotFound(removed.error())) return base::Status::Ok();
  return removed;
}

std::optional<kube::PersistentVolumeClaim> ClaimFinalizer::ProtectedClaim(
    const std::string& ns, const std::string& name) const {
  auto cached = caches_.claims.Get(ns, name);
  if (!cached) return std::nullopt;
  if (kube::HasFinalizer(cached->metadata, kClaimAsSourceFinalizer)) return *cached;
  // The cache may be behind our own write that added it: a snapshot can turn
  // ready before the claim's watch event arrives, and an API server restart
  // loses that event until the next list (docs/snapshots.md §9.14).
  return api_.WrittenClaimWithFinalizer(ns, name);
}

bool ClaimFinalizer::InUse(const kube::VolumeSnapshot& snapshot, const std::string& claim_name,
                           bool count_snapshot) const {
  if (count_snapshot && !IsReady(snapshot)) return true;
  for (const auto& other : caches_.snapshots.List()) {
    if (other->metadata.namespace_ != snapshot.metadata.namespace_ ||
        other->metadata.name == snapshot.metadata.name) {
      continue;
    }
    if (other->spec.source.persistent_volume_claim_name == claim_name && !IsReady(*other)) {
      return true;
    }
  }
  return false;
}

}  // namespace snapshot_controller
