#include "snapshot_controller/snapshot_deletion.h"

#include <chrono>
#include <optional>
#include <string_view>

#include "kube/api/core/v1/event.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "kube/client/patch_from_cache.h"
#include "snapshot_controller/content_deletion.h"
#include "snapshot_controller/driver_of.h"
#include "snapshot_controller/dynamic_content.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/restoring_claims.h"
#include "snapshot_controller/snapshot_predicates.h"

namespace snapshot_controller {
namespace {

std::string KeyOf(const kube::VolumeSnapshot& snapshot) {
  return snapshot.metadata.namespace_ + "/" + snapshot.metadata.name;
}

base::Error UpdateFailed(const std::string& name, const base::Error& error) {
  return error.Wrap("snapshot controller failed to update " + name + " on API server");
}

}  // namespace

SnapshotDeletion::SnapshotDeletion(ControllerApi& api, const Caches& caches,
                                   ClaimFinalizer& claim_finalizer, ControllerEvents& events,
                                   OperationMetrics& metrics, base::Clock& clock)
    : api_(api),
      caches_(caches),
      claim_finalizer_(claim_finalizer),
      events_(events),
      metrics_(metrics),
      pending_events_(clock, kPendingEventInterval) {}

base::Status SnapshotDeletion::Delete(const kube::VolumeSnapshot& snapshot) {
  metrics_.Start(kDeleteSnapshotOperation, snapshot.metadata.uid.str(), DriverOf(snapshot, caches_),
                 snapshot.spec.source.volume_snapshot_content_name ? SnapshotType::kPreProvisioned
                                                                   : SnapshotType::kDynamic);
  if (!IsDeletionCandidate(snapshot)) return base::Status::Ok();

  ContentPtr content = ContentOf(snapshot);
  if (auto free = CheckNotInUse(snapshot, content != nullptr); !free.ok()) return free;

  bool keep_bound = false;
  if (content) {
    auto deleted = MarkAndDeleteContent(snapshot, *content);
    if (!deleted.ok()) return deleted.error();
    keep_bound = *deleted;
  }
  return RemoveFinalizers(snapshot, keep_bound);
}

SnapshotDeletion::ContentPtr SnapshotDeletion::ContentOf(
    const kube::VolumeSnapshot& snapshot) const {
  std::string name;
  if (snapshot.status && snapshot.status->bound_volume_snapshot_content_name) {
    name = *snapshot.status->bound_volume_snapshot_content_name;
  }
  // A dynamic snapshot's content may exist before the status names it.
  if (name.empty() && snapshot.spec.source.persistent_volume_claim_name) {
    name = DynamicContentNameFor(snapshot);
  }
  if (name.empty()) return nullptr;
  ContentPtr content = caches_.contents.Get("", name);
  return content && PointsBackTo(*content, snapshot) ? content : nullptr;
}

base::Status SnapshotDeletion::CheckNotInUse(const kube::VolumeSnapshot& snapshot,
                                             bool has_content) {
  if (has_content) {
    if (auto claim = ClaimRestoringFrom(snapshot, caches_.claims)) {
      // §9.7: upstream's message names no claim.
      return Pending(snapshot, "Snapshot is being used to restore PVC " + *claim,
                     base::Error("snapshot " + KeyOf(snapshot) +
                                 " is in use (being used to restore a PVC), will retry deletion"));
    }
  }
  if (HeldByGroup(snapshot, caches_)) {
    const std::string message =
        "deletion of the individual volume snapshot " + KeyOf(snapshot) +
        " is not allowed as it belongs to group snapshot " + snapshot.metadata.namespace_ + "/" +
        *snapshot.status->volume_group_snapshot_name +
        ". Deleting the group snapshot will trigger the deletion of all the individual volume "
        "snapshots that are part of the group.";
    return Pending(snapshot, message, base::Error(message));
  }
  pending_events_.Forget(snapshot.metadata.uid.str());
  return base::Status::Ok();
}

base::Error SnapshotDeletion::Pending(const kube::VolumeSnapshot& snapshot,
                                      const std::string& message, base::Error error) {
  if (pending_events_.Allow(snapshot.metadata.uid.str())) {
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeWarning, "SnapshotDeletePending",
                   message);
  }
  return error;
}

base::Result<bool> SnapshotDeletion::MarkAndDeleteContent(
    const kube::VolumeSnapshot& snapshot, const kube::VolumeSnapshotContent& content) {
  return snapshot_controller::MarkAndDeleteContent(api_, events_, kube::ReferenceTo(snapshot),
                                                   content);
}

base::Status SnapshotDeletion::RemoveFinalizers(const kube::VolumeSnapshot& snapshot,
                                                bool keep_bound) {
  const std::string& name = snapshot.metadata.name;
  // Before the snapshot can go: no later sync of it would let go of the claim.
  if (auto released = claim_finalizer_.RemoveIfUnused(snapshot); !released.ok()) {
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeWarning, "ErrorPVCFinalizer",
                   "Error check and remove PVC Finalizer for VolumeSnapshot");
    return UpdateFailed(name, released.error());
  }
  const std::string& ns = snapshot.metadata.namespace_;
  base::Status removed = kube::PatchFromCache(
      snapshot,
      [&](const kube::VolumeSnapshot& copy) {
        kube::JsonPatch patch;
        // Both finalizers go in one patch: while a content of policy Delete
        // holds the bound one, the as-source one waits with it (§9.4).
        if (keep_bound && kube::HasFinalizer(copy.metadata, kSnapshotBoundFinalizer)) return patch;
        kube::ObjectMeta meta = copy.metadata;
        kube::RemoveFinalizerOps(meta, kSnapshotAsSourceFinalizer, patch);
        if (!keep_bound) kube::RemoveFinalizerOps(meta, kSnapshotBoundFinalizer, patch);
        if (GroupIsGone(copy, caches_)) {
          kube::RemoveFinalizerOps(meta, kSnapshotInGroupFinalizer, patch);
        }
        return patch;
      },
      [&](const std::string& patch) {
        return api_.PatchSnapshot(ns, name, kube::PatchType::kJson, patch, /*status=*/false);
      },
      [&] { return api_.GetSnapshot(ns, name); });
  // A snapshot already gone has no finalizer left to remove.
  if (!removed.ok() && !kube::IsNotFound(removed.error()))
    return UpdateFailed(name, removed.error());
  return base::Status::Ok();
}

}  // namespace snapshot_controller
