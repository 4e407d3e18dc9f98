// ClaimController's records that outlive one attempt (claim_controller.h):
// the durable record of an unknown CreateVolume outcome on the claim - the
// §9.1 finalizer and the §9.8 accessibility record - and the snapshot
// sources an attempt protected, released on every final outcome (§9.7).
#include <utility>

#include "base/log.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "provisioner/claim_controller.h"
#include "provisioner/names.h"

namespace provisioner {

void ClaimController::RecordUnknownOutcome(
    const Claim& claim, const std::optional<csi::v1::TopologyRequirement>& topology) {
  // §9.8: the place first, so a claim with the finalizer has it too.
  if (topology) RecordTopology(claim, TopologyRecord(*topology));
  if (kube::HasFinalizer(claim.metadata, kVolumeBeingCreatedFinalizer)) return;
  if (base::Status s = api_.SetClaimFinalizer(claim.metadata.namespace_, claim.metadata.name,
                                              kVolumeBeingCreatedFinalizer, /*add=*/true);
      !s.ok()) {
    if (kube::IsNotFound(s.error())) return;
    // The record in memory still covers this process's life.
    LOG_ERROR("Failed to add the volume-being-created finalizer to the claim")
        .With("PVC", claim.metadata.namespace_ + "/" + claim.metadata.name)
        .With("err", s.error().message);
    return;
  }
  LOG_INFO("CreateVolume outcome unknown: the claim keeps the volume-being-created finalizer")
      .With("PVC", claim.metadata.namespace_ + "/" + claim.metadata.name);
  std::lock_guard lock(mu_);
  recorded_.insert(claim.metadata.namespace_ + "/" + claim.metadata.name);
}

void ClaimController::RecordTopology(const Claim& claim, const std::string& record) {
  const std::string key = claim.metadata.namespace_ + "/" + claim.metadata.name;
  if (auto it = claim.metadata.annotations.find(kAccessibilityRecordAnnotation);
      it != claim.metadata.annotations.end() && it->second == record) {
    return;
  }
  if (base::Status s = api_.SetClaimAnnotation(claim.metadata.namespace_, claim.metadata.name,
                                               kAccessibilityRecordAnnotation, record);
      !s.ok()) {
    // This process's memo still keeps the place.
    if (!kube::IsNotFound(s.error())) {
      LOG_ERROR("Failed to record the claim's accessibility requirements")
          .With("PVC", key)
          .With("err", s.error().message);
    }
    return;
  }
  std::lock_guard lock(mu_);
  recorded_places_.insert(key);
}

base::Status ClaimController::ForgetUnknownOutcome(const Claim& claim) {
  // The claim at hand may not show this process's own write yet: what it
  // added is remembered too.
  const std::string key = claim.metadata.namespace_ + "/" + claim.metadata.name;
  bool recorded = kube::HasFinalizer(claim.metadata, kVolumeBeingCreatedFinalizer);
  bool place = claim.metadata.annotations.contains(kAccessibilityRecordAnnotation);
  {
    std::lock_guard lock(mu_);
    recorded = recorded || recorded_.contains(key);
    place = place || recorded_places_.contains(key);
  }
  if (!recorded && !place) return base::Status::Ok();
  // The finalizer goes last: while it stays, so does the record of the place.
  base::Status s = base::Status::Ok();
  if (place) {
    s = api_.SetClaimAnnotation(claim.metadata.namespace_, claim.metadata.name,
                                kAccessibilityRecordAnnotation, std::nullopt);
  }
  if (recorded && (s.ok() || kube::IsNotFound(s.error()))) {
    s = api_.SetClaimFinalizer(claim.metadata.namespace_, claim.metadata.name,
                               kVolumeBeingCreatedFinalizer, /*add=*/false);
  }
  if (!s.ok() && !kube::IsNotFound(s.error())) return s;
  LOG_INFO("CreateVolume outcome known: the volume-being-created finalizer is removed")
      .With("PVC", key);
  std::lock_guard lock(mu_);
  recorded_.erase(key);
  recorded_places_.erase(key);
  return base::Status::Ok();
}

void ClaimController::HoldSnapshot(const std::string& key, const DataSource& source) {
  if (!source.IsSnapshot()) return;
  std::lock_guard lock(mu_);
  held_snapshots_[key] = {source.namespace_, source.name};
}

void ClaimController::ReleaseSnapshotOf(const std::string& key) {
  std::pair<std::string, std::string> snapshot;
  {
    std::lock_guard lock(mu_);
    auto it = held_snapshots_.find(key);
    if (it == held_snapshots_.end()) return;
    snapshot = std::move(it->second);
    held_snapshots_.erase(it);
  }
  const auto& [ns, name] = snapshot;
  if (base::Status s = ReleaseSnapshot(api_, ns, name); !s.ok()) {
    // Upstream logs it and forgets it; ours keeps it for the claim's next
    // sync to try again (a claim gone for good has no next sync).
    LOG_WARNING("Failed to remove snapshot finalizer")
        .With("snapshot", ns + "/" + name)
        .With("PVC", key)
        .With("err", s.error().message);
    std::lock_guard lock(mu_);
    held_snapshots_.emplace(key, std::move(snapshot));
  }
}

}  // namespace provisioner
