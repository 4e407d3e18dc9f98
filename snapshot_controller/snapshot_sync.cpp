#include "snapshot_controller/snapshot_sync.h"

#include <optional>
#include <variant>
#include <vector>

#include "csi_params/volumes.h"
#include "kube/api/json_patch.h"
#include "snapshot_controller/default_snapshot_class.h"
#include "snapshot_controller/driver_of.h"
#include "snapshot_controller/dynamic_content.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/group_ownership.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/snapshot_predicates.h"
#include "snapshot_controller/snapshot_status.h"
#include "snapshot_controller/source_volume.h"
#include "snapshot_controller/status_error.h"

namespace snapshot_controller {
namespace {

std::string KeyOf(const kube::VolumeSnapshot& snapshot) {
  return snapshot.metadata.namespace_ + "/" + snapshot.metadata.name;
}

bool IsReady(const kube::VolumeSnapshot& snapshot) {
  return snapshot.status && snapshot.status->ready_to_use.value_or(false);
}

bool IsCreated(const kube::VolumeSnapshot& snapshot) {
  return snapshot.status && snapshot.status->creation_time;
}

const std::string* BoundContentName(const kube::VolumeSnapshot& snapshot) {
  if (!snapshot.status || !snapshot.status->bound_volume_snapshot_content_name ||
      snapshot.status->bound_volume_snapshot_content_name->empty()) {
    return nullptr;
  }
  return &*snapshot.status->bound_volume_snapshot_content_name;
}

// The content's reference names the snapshot, UID included.
std::string Misbound(const std::string& content_name) {
  return "VolumeSnapshotContent [" + content_name + "] is bound to a different snapshot";
}

}  // namespace

base::Status SnapshotSync::Sync(const kube::VolumeSnapshot& snapshot) {
  SnapshotWriter writer(api_, written_, snapshot);
  if (auto classed = EnsureClass(writer); !classed.ok()) return classed;

  const auto& source = writer.object().spec.source;
  if (source.persistent_volume_claim_name.has_value() ==
      source.volume_snapshot_content_name.has_value()) {
    const std::string message =
        "Exactly one of PersistentVolumeClaimName and VolumeSnapshotContentName should be "
        "specified";
    (void)ReportError(writer, true, "SnapshotValidationError", message);
    return base::Error(message);
  }

  if (auto finalized = AddFinalizers(writer); !finalized.ok()) {
    events_.Record(kube::ReferenceTo(writer.object()), kube::kEventTypeWarning,
                   "SnapshotFinalizerError",
                   "Failed to check and update snapshot: " + finalized.error().message);
    return finalized;
  }

  if (IsReady(writer.object()) && BoundContentName(writer.object())) return SyncReady(writer);
  base::Status synced = SyncUnready(writer);
  if (!synced.ok() || !IsReady(writer.object())) return synced;
  return ReleaseClaim(writer.object());
}

base::Status SnapshotSync::ReleaseClaim(const kube::VolumeSnapshot& snapshot) {
  auto released = claim_finalizer_.RemoveIfNoUnreadySnapshot(snapshot);
  if (!released.ok()) {
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeWarning, "ErrorPVCFinalizer",
                   "Error check and remove PVC Finalizer for VolumeSnapshot");
  }
  return released;
}

base::Status SnapshotSync::EnsureClass(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  if (const auto& class_name = snapshot.spec.volume_snapshot_class_name) {
    if (caches_.classes.Get("", *class_name)) return base::Status::Ok();
    base::Error missing = SnapshotClassNotFound(*class_name);
    (void)ReportError(writer, false, "GetSnapshotClassFailed",
                      "Failed to get snapshot class with error " + missing.message);
    return missing;
  }
  if (snapshot.spec.source.volume_snapshot_content_name || IsGroupMember(snapshot)) {
    return base::Status::Ok();
  }

  auto default_class = [&]() -> base::Result<SnapshotClassPtr> {
    auto volume = SourceVolumeOf(snapshot, caches_, api_);
    if (!volume.ok()) return volume.error();
    const auto* csi = csi_params::CsiSourceOf(*volume);
    if (csi == nullptr) {
      return base::Error("snapshotting non-CSI volumes is not supported, snapshot:" +
                         KeyOf(snapshot));
    }
    return DefaultSnapshotClassFor(caches_.classes.List(), csi->driver);
  }();
  if (!default_class.ok()) {
    (void)ReportError(
        writer, false, "SetDefaultSnapshotClassFailed",
        "Failed to set default snapshot class with error " + default_class.error().message);
    return default_class.error();
  }
  return writer.SetClass((*default_class)->metadata.name);
}

base::Status SnapshotSync::AddFinalizers(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  auto content = snapshot.spec.source.volume_snapshot_content_name ? PreProvisionedContent(writer)
                                                                   : DynamicContent(writer);
  if (!content.ok()) return content.error();
  // The bound finalizer keeps the snapshot while its content may still
  // delete the backend snapshot. It joins the as-source one in the first
  // patch, before the bind that upstream waits for (§9.4).
  if (PolicyOfItsContent(snapshot, *content) == kube::kDeletionPolicyDelete) {
    return writer.AddFinalizers({kSnapshotAsSourceFinalizer, kSnapshotBoundFinalizer});
  }
  return writer.AddFinalizers({kSnapshotAsSourceFinalizer});
}

std::string SnapshotSync::PolicyOfItsContent(const kube::VolumeSnapshot& snapshot,
                                             const ContentPtr& content) const {
  if (content) return content->spec.deletion_policy;
  // Only a content this sync creates is known by its class: a ready
  // snapshot's is gone, and a group member's is the group's to create.
  const auto& class_name = snapshot.spec.volume_snapshot_class_name;
  const bool ready = IsReady(snapshot) && BoundContentName(snapshot);
  if (ready || snapshot.spec.source.volume_snapshot_content_name || IsGroupMember(snapshot) ||
      !class_name) {
    return "";
  }
  auto snapshot_class = caches_.classes.Get("", *class_name);
  return snapshot_class ? snapshot_class->deletion_policy : "";
}

base::Status SnapshotSync::SyncReady(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  auto content = caches_.contents.Get("", *BoundContentName(snapshot));
  if (!content) {
    return ReportError(writer, true, "SnapshotContentMissing", "VolumeSnapshotContent is missing");
  }
  if (!PointsBackTo(*content, snapshot)) {
    return ReportError(writer, true, "SnapshotMisbound",
                       "VolumeSnapshotContent is not bound to the VolumeSnapshot correctly");
  }
  return EnsureGroupOwnership(api_, caches_, snapshot);
}

base::Status SnapshotSync::SyncUnready(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  const bool pre_provisioned = snapshot.spec.source.volume_snapshot_content_name.has_value();
  const std::string driver = DriverOf(snapshot, caches_);
  const SnapshotType type =
      pre_provisioned ? SnapshotType::kPreProvisioned : SnapshotType::kDynamic;
  const std::string uid = snapshot.metadata.uid.str();
  if (!IsCreated(snapshot)) metrics_.Start(kCreateSnapshotOperation, uid, driver, type);
  metrics_.Start(kCreateSnapshotAndReadyOperation, uid, driver, type);

  if (pre_provisioned) return SyncPreProvisioned(writer);
  if (IsGroupMember(snapshot)) return SyncGroupMember(writer);
  return SyncDynamic(writer);
}

base::Status SnapshotSync::SyncPreProvisioned(SnapshotWriter& writer) {
  auto content = PreProvisionedContent(writer);
  if (!content.ok()) return content.error();
  const kube::VolumeSnapshot& snapshot = writer.object();
  const std::string& content_name = *snapshot.spec.source.volume_snapshot_content_name;
  if (!*content) {
    (void)ReportError(writer, true, "SnapshotContentMissing", "VolumeSnapshotContent is missing");
    return base::Error("snapshot " + KeyOf(snapshot) + " requests an non-existing content " +
                       content_name);
  }
  auto bound = Bind(snapshot, **content);
  if (!bound.ok()) {
    (void)ReportError(writer, true, "SnapshotBindFailed",
                      "Snapshot failed to bind VolumeSnapshotContent, " + bound.error().message);
    return base::Error("snapshot " + KeyOf(snapshot) + " is bound, but VolumeSnapshotContent " +
                       content_name + " is not bound to the VolumeSnapshot correctly, " +
                       bound.error().message);
  }
  if (auto copied = CopyStatus(writer, *bound); !copied.ok()) {
    (void)ReportError(writer, false, "SnapshotStatusUpdateFailed",
                      "Snapshot status update failed, " + copied.error().message);
    return copied;
  }
  return base::Status::Ok();
}

base::Status SnapshotSync::SyncGroupMember(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  const std::string* content_name = BoundContentName(snapshot);
  if (!content_name) {
    return base::Error("detected group snapshot member " + KeyOf(snapshot) +
                       " with no content, retrying");
  }
  auto content = caches_.contents.Get("", *content_name);
  if (!content) {
    return base::Error("group snapshot member " + KeyOf(snapshot) +
                       " requests an non-existing content " + *content_name);
  }
  if (auto copied = CopyStatus(writer, *content); !copied.ok()) {
    (void)ReportError(writer, false, "SnapshotStatusUpdateFailed",
                      "Snapshot status update failed, " + copied.error().message);
    return copied;
  }
  return base::Status::Ok();
}

base::Status SnapshotSync::SyncDynamic(SnapshotWriter& writer) {
  auto existing = DynamicContent(writer);
  if (!existing.ok()) return existing.error();
  const kube::VolumeSnapshot& snapshot = writer.object();
  if (*existing) {
    if ((*existing)->spec.source.snapshot_handle) {
      (void)ReportError(writer, true, "SnapshotHandleSet",
                        "Snapshot handle should not be set in content " + KeyOf(snapshot) +
                            " for dynamic provisioning");
      return base::Error(
          "snapshotHandle should not be set in the content for dynamic provisioning for "
          "snapshot " +
          KeyOf(snapshot));
    }
    if (auto copied = CopyStatus(writer, **existing); !copied.ok()) {
      (void)ReportError(writer, true, "SnapshotStatusUpdateFailed",
                        "Snapshot status update failed, " + copied.error().message);
      return copied;
    }
    return base::Status::Ok();
  }

  if (!snapshot.spec.source.persistent_volume_claim_name) {
    (void)ReportError(writer, true, "SnapshotPVCSourceMissing",
                      "PVC source for snapshot " + KeyOf(snapshot) + " is missing");
    return base::Error("expected PVC source for snapshot " + KeyOf(snapshot) + " but got nil");
  }
  auto created = content_creation_.Create(snapshot);
  if (!created.ok()) {
    (void)ReportError(writer, true, "SnapshotContentCreationFailed",
                      "Failed to create snapshot content with error " + created.error().message);
    return created.error();
  }
  // A new content has no status yet: the snapshot's is first written when
  // the sidecar has given the content one, as the content's sync finds the
  // snapshot's lagging then (§4.4), not once bound and again once cut (§9.4).
  return base::Status::Ok();
}

base::Result<SnapshotSync::ContentPtr> SnapshotSync::PreProvisionedContent(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  const std::string& name = *snapshot.spec.source.volume_snapshot_content_name;
  if (name.empty()) {
    return base::Error("empty VolumeSnapshotContentName for snapshot " + KeyOf(snapshot));
  }
  ContentPtr content = caches_.contents.Get("", name);
  if (!content) return content;
  if (!content->spec.source.snapshot_handle) {
    (void)ReportError(
        writer, true, "SnapshotContentMismatch",
        "VolumeSnapshotContent is dynamically provisioned while expecting a pre-provisioned one");
    return base::Error("snapshot " + KeyOf(snapshot) +
                       " expects a pre-provisioned VolumeSnapshotContent " + name +
                       " but gets a dynamically provisioned one");
  }
  // A pre-provisioned content may not know the snapshot's UID yet.
  const kube::ObjectReference& ref = content->spec.volume_snapshot_ref;
  if (ref.name != snapshot.metadata.name || ref.namespace_ != snapshot.metadata.namespace_ ||
      (!ref.uid.empty() && ref.uid != snapshot.metadata.uid)) {
    (void)ReportError(writer, true, "SnapshotContentMisbound", Misbound(name));
    return base::Error(Misbound(name));
  }
  return content;
}

base::Result<SnapshotSync::ContentPtr> SnapshotSync::DynamicContent(SnapshotWriter& writer) {
  const kube::VolumeSnapshot& snapshot = writer.object();
  const std::string name = DynamicContentNameFor(snapshot);
  ContentPtr content = caches_.contents.Get("", name);
  if (!content) return content;
  if (!content->spec.source.volume_handle) {
    (void)ReportError(writer, true, "SnapshotContentMismatch",
                      "VolumeSnapshotContent " + name +
                          " is pre-provisioned while expecting a dynamically provisioned one");
    return base::Error("snapshot " + KeyOf(snapshot) +
                       " expects a dynamically provisioned VolumeSnapshotContent " + name +
                       " but gets a pre-provisioned one");
  }
  if (!PointsBackTo(*content, snapshot)) {
    (void)ReportError(writer, true, "SnapshotContentMisbound", Misbound(name));
    return base::Error(Misbound(name));
  }
  return content;
}

base::Result<kube::VolumeSnapshotContent> SnapshotSync::Bind(
    const kube::VolumeSnapshot& snapshot, const kube::VolumeSnapshotContent& content) {
  const kube::ObjectReference& ref = content.spec.volume_snapshot_ref;
  if (ref.name != snapshot.metadata.name ||
      (!ref.uid.empty() && ref.uid != snapshot.metadata.uid)) {
    return base::Error("Could not bind snapshot " + snapshot.metadata.name + " and content " +
                       content.metadata.name + ", the VolumeSnapshotRef does not match");
  }
  if (!ref.uid.empty() && content.spec.volume_snapshot_class_name) return content;

  kube::JsonPatch patch;
  patch.Replace("/spec/volumeSnapshotRef/uid", snapshot.metadata.uid.str());
  if (const auto& class_name = snapshot.spec.volume_snapshot_class_name) {
    patch.Replace("/spec/volumeSnapshotClassName", *class_name);
  }
  return api_.PatchContent(content.metadata.name, kube::PatchType::kJson, patch.Serialize(),
                           /*status=*/false);
}

base::Status SnapshotSync::CopyStatus(SnapshotWriter& writer,
                                      const kube::VolumeSnapshotContent& content) {
  std::vector<SnapshotNormalEvent> changes;
  auto written = writer.WriteStatus(
      [&](const kube::VolumeSnapshot& current) -> std::optional<kube::VolumeSnapshotStatus> {
        // After a conflict this runs again on the fresh object: only the
        // last attempt's changes were written.
        changes.clear();
        auto change =
            SnapshotStatusFromContent(current, content, GroupSnapshotNameOf(content, caches_));
        if (!change) return std::nullopt;
        changes = std::move(change->events);
        return std::move(change->status);
      });
  if (!written.ok()) return written;
  const kube::VolumeSnapshot& snapshot = writer.object();
  const std::string uid = snapshot.metadata.uid.str();
  for (const SnapshotNormalEvent& change : changes) {
    if (change.reason == "SnapshotCreated") {
      metrics_.Record(kCreateSnapshotOperation, uid, OperationStatus::kSuccess,
                      content.spec.driver);
    } else if (change.reason == "SnapshotReady") {
      metrics_.Record(kCreateSnapshotAndReadyOperation, uid, OperationStatus::kSuccess,
                      content.spec.driver);
    }
    events_.Record(kube::ReferenceTo(snapshot), kube::kEventTypeNormal, change.reason,
                   change.message);
  }
  // A sync that began from a stale cached copy started an operation an
  // earlier sync already finished: it must not stay in flight.
  if (IsCreated(snapshot)) metrics_.Drop(kCreateSnapshotOperation, uid);
  if (IsReady(snapshot)) metrics_.Drop(kCreateSnapshotAndReadyOperation, uid);
  return base::Status::Ok();
}

base::Status SnapshotSync::ReportError(SnapshotWriter& writer, bool set_not_ready,
                                       std::string_view reason, const std::string& message) {
  return ReportStatusError(writer, events_, clock_, set_not_ready, reason, message);
}

}  // namespace snapshot_controller
