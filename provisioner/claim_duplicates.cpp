// ClaimController's §9.2 part (docs/provisioner.md §9.2, upstream #1469):
// one volume per claim. A PV POST's AlreadyExists is checked against the
// stored PV, a volume no PV can name is deleted, a PV that appears while a
// CreateVolume outcome is unknown is compared with the volume asked for
// again, and a claim the cache lost is confirmed gone with a live GET.
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "base/log.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "provisioner/claim_controller.h"
#include "provisioner/csi_view.h"
#include "provisioner/deletion_secrets.h"
#include "provisioner/names.h"

namespace provisioner {

bool ClaimController::OutcomeUnknown(const std::string& key, const Claim& claim) {
  if (kube::HasFinalizer(claim.metadata, kVolumeBeingCreatedFinalizer)) return true;
  std::lock_guard lock(mu_);
  return in_background_.contains(key) || recorded_.contains(key);
}

kube::ReconcileResult ClaimController::PvExists(const std::string& key, const Claim& claim) {
  if (base::Status s = ForgetUnknownOutcome(claim); !s.ok()) return s.error();
  ReleaseSnapshotOf(key);  // §9.7: the volume is made
  std::lock_guard lock(mu_);
  in_background_.erase(key);
  unsaved_volumes_.erase(key);
  retry_not_before_.erase(key);
  backoff_.Forget(key);
  return kube::Action::Done();
}

base::Result<std::shared_ptr<const ClaimController::Claim>> ClaimController::ConfirmVanished(
    const std::shared_ptr<const Claim>& remembered) {
  auto live = api_.GetClaim(remembered->metadata.namespace_, remembered->metadata.name);
  if (!live.ok()) {
    if (kube::IsNotFound(live.error())) return remembered;
    return live.error().Wrap("failed to confirm that claim " + remembered->metadata.namespace_ +
                             "/" + remembered->metadata.name + " is gone");
  }
  // A claim of the same name but another UID is a new one: its own sync
  // provisions it, while this one finishes the old claim's volume.
  if (live->metadata.uid != remembered->metadata.uid) return remembered;
  LOG_V(2, "Claim missing from the cache is still stored, going on with the stored one")
      .With("PVC", remembered->metadata.namespace_ + "/" + remembered->metadata.name);
  return std::make_shared<const Claim>(std::move(*live));
}

base::Result<bool> ClaimController::StoredPvNamesVolume(const kube::PersistentVolume& volume) {
  auto stored = api_.GetVolume(volume.metadata.name);
  if (!stored.ok()) {
    // Gone again since the POST: the next attempt POSTs once more.
    return stored.error().Wrap("failed to read the existing PersistentVolume " +
                               volume.metadata.name);
  }
  auto ours = CsiViewOf(volume);
  auto theirs = CsiViewOf(*stored);
  return ours.ok() && theirs.ok() && ours->source.driver == theirs->source.driver &&
         ours->source.volume_handle == theirs->source.volume_handle;
}

kube::ReconcileResult ClaimController::DuplicateVolumeMade(const std::string& key,
                                                           const Claim& claim,
                                                           const kube::PersistentVolume& volume) {
  LOG_ERROR("PersistentVolume already exists for another volume; deleting the volume just made")
      .With("PVC", key)
      .With("PV", volume.metadata.name);
  {
    std::lock_guard lock(mu_);
    duplicates_[key] = volume;
    unsaved_volumes_.erase(key);
    in_background_.erase(key);
  }
  if (auto deleted = DeleteDuplicateOf(key); !deleted.ok()) return deleted.error();
  return PvExists(key, claim);
}

base::Result<bool> ClaimController::DeleteDuplicateOf(const std::string& key) {
  std::optional<kube::PersistentVolume> duplicate;
  {
    std::lock_guard lock(mu_);
    auto it = duplicates_.find(key);
    if (it == duplicates_.end()) return false;
    duplicate = it->second;
  }
  auto view = CsiViewOf(*duplicate);
  if (!view.ok()) return view.error();
  const std::string& handle = view->source.volume_handle;
  auto secrets = DeletionSecretsOf(*duplicate, classes_, api_, view->migrated ? &known_ : nullptr);
  if (!secrets.ok()) return secrets.error();
  if (base::Status s = driver_.DeleteVolume(handle, *secrets, view->migrated); !s.ok()) {
    return s.error().Wrap("failed to delete volume " + handle +
                          " that no PersistentVolume can name");
  }
  LOG_INFO("Volume no PersistentVolume can name deleted")
      .With("PVC", key)
      .With("volumeHandle", handle);
  std::lock_guard lock(mu_);
  duplicates_.erase(key);
  return true;
}

}  // namespace provisioner
