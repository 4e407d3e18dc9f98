#include "attacher/csi_handler.h"

#include <optional>
#include <utility>

#include "attacher/event_filters.h"
#include "attacher/names.h"
#include "attacher/node_id.h"
#include "attacher/va_status.h"
#include "attacher/volume_capability.h"
#include "attacher/volume_source.h"
#include "base/log.h"
#include "kube/api/metadata_patch.h"
#include "kube/api/strategic_metadata_patch.h"
#include "kube/client/api_error.h"

namespace attacher {
namespace {

std::map<std::string, std::string> ToMap(const kube::StringMap& map) {
  return std::map<std::string, std::string>(map.begin(), map.end());
}

}  // namespace

CsiHandler::CsiHandler(std::string driver_name, const kube::Store<kube::VolumeAttachment>& vas,
                       const kube::Store<kube::PersistentVolume>& pvs,
                       const kube::Store<kube::CSINode>& csi_nodes, KubernetesApi& api,
                       VolumePublisher& publisher, Options options, base::Clock& clock)
    : driver_name_(std::move(driver_name)),
      finalizer_(FinalizerFor(driver_name_)),
      vas_(vas),
      pvs_(pvs),
      csi_nodes_(csi_nodes),
      api_(api),
      publisher_(publisher),
      options_(std::move(options)),
      clock_(clock) {}

void CsiHandler::RequestForceSync(const std::string& va_name) {
  std::lock_guard lock(force_sync_mu_);
  force_sync_.insert(va_name);
}

bool CsiHandler::TakeForceSync(const std::string& va_name) {
  std::lock_guard lock(force_sync_mu_);
  return force_sync_.erase(va_name) > 0;
}

base::Status CsiHandler::SyncVolumeAttachment(const kube::VolumeAttachment& va) {
  // Taken, not just read: a request arriving while this sync runs must
  // survive it, because it may reflect driver state this sync did not see.
  bool forced = TakeForceSync(va.metadata.name);
  base::Status status =
      va.metadata.deletion_timestamp.empty() ? Attach(va, forced) : Detach(va, forced);
  if (forced && !status.ok()) RequestForceSync(va.metadata.name);
  return status;
}

base::Status CsiHandler::Attach(const kube::VolumeAttachment& va, bool forced) {
  const std::string& name = va.metadata.name;
  if (va.status.attached && !forced) {
    LOG_V(4, "Already attached").With("VolumeAttachment", name);
    return ClearLeftoverAttachError(va);
  }
  LOG_V(2, "Attaching").With("VolumeAttachment", name);
  auto request = PrepareAttach(va);
  if (!request.ok()) return FailAttach(va, request.error());
  auto publish_context = publisher_.Publish(*request);
  if (!publish_context.ok()) return FailAttach(va, publish_context.error());
  LOG_V(2, "Attached").With("VolumeAttachment", name);

  // Like upstream, a failure here is not saved as attachError: the volume
  // is attached, only recording it failed.
  if (std::string patch = MarkAttachedPatch(va, *publish_context); !patch.empty()) {
    auto marked = api_.PatchVolumeAttachment(name, kube::PatchType::kMerge, patch, true);
    if (!marked.ok()) return marked.error().Wrap("failed to mark as attached");
  }
  return base::Status::Ok();
}

// An attached VA can carry an attachError that a sync working from stale
// copies saved; upstream keeps it for good (docs/attacher.md §7 row 10). The
// volume is attached, so the driver is not asked again.
base::Status CsiHandler::ClearLeftoverAttachError(const kube::VolumeAttachment& va) {
  std::string patch = ClearAttachErrorPatch(va);
  if (patch.empty()) return base::Status::Ok();
  LOG_V(2, "Clearing the attachError of an attached VolumeAttachment")
      .With("VolumeAttachment", va.metadata.name);
  auto cleared = api_.PatchVolumeAttachment(va.metadata.name, kube::PatchType::kMerge, patch,
                                            /*status=*/true);
  if (!cleared.ok()) return cleared.error().Wrap("failed to clear attachError");
  return base::Status::Ok();
}

base::Result<PublishRequest> CsiHandler::PrepareAttach(const kube::VolumeAttachment& va) {
  auto volume = VolumeOf(va, pvs_);
  if (!volume.ok()) return volume.error();
  if (const kube::PersistentVolume* pv = volume->pv.get()) {
    if (!pv->metadata.deletion_timestamp.empty()) {
      return base::Error("PersistentVolume \"" + pv->metadata.name + "\" is marked for deletion");
    }
    if (auto added = EnsurePvFinalizer(*pv); !added.ok()) {
      return added.error().Wrap("could not add PersistentVolume finalizer");
    }
  }
  auto csi = CsiVolumeOf(*volume);
  if (!csi.ok()) return csi.error();
  const kube::CSIPersistentVolumeSource& source = *csi->source;

  PublishRequest request;
  request.migrated = csi->migrated;
  request.volume_context = ToMap(source.volume_attributes);
  request.volume_id = source.volume_handle;
  // CSI: "CO MUST set this field to false if SP does not have the
  // PUBLISH_READONLY controller capability".
  request.readonly = source.read_only && options_.supports_publish_readonly;
  auto capability = VolumeCapabilityFor(
      *csi->spec, source, options_.supports_single_node_multi_writer, options_.default_fstype);
  if (!capability.ok()) return capability.error();
  request.capability = std::move(*capability);
  auto secrets = LoadSecrets(source);
  if (!secrets.ok()) return secrets.error();
  request.secrets = std::move(*secrets);
  auto node_id = NodeIdOf(csi_nodes_, driver_name_, va.spec.node_name, /*annotated=*/nullptr);
  if (!node_id.ok()) return node_id.error();
  request.node_id = std::move(*node_id);

  if (auto saved = SaveFinalizerAndNodeId(va, request.node_id); !saved.ok()) return saved.error();
  return request;
}

// Our finalizer goes onto the PV as a strategic merge patch: it joins
// whatever list the API server holds, once, and nothing another writer did
// since our copy was cached can make it fail (docs/attacher.md §7 row 3).
base::Status CsiHandler::EnsurePvFinalizer(const kube::PersistentVolume& pv) {
  const std::string& name = pv.metadata.name;
  if (kube::HasFinalizer(pv.metadata, finalizer_)) return base::Status::Ok();
  auto patched = api_.PatchPersistentVolume(
      name, kube::PatchType::kStrategicMerge,
      kube::StrategicMetadataPatch().AddFinalizer(finalizer_).Serialize());
  if (!patched.ok()) return patched.error();
  LOG_V(4, "PV finalizer added").With("PersistentVolume", name);
  return base::Status::Ok();
}

// One strategic merge patch for both, where upstream sends a merge patch
// that rewrites the finalizer list from the cache (docs/attacher.md §7 row 3).
base::Status CsiHandler::SaveFinalizerAndNodeId(const kube::VolumeAttachment& va,
                                                const std::string& node_id) {
  kube::StrategicMetadataPatch patch;
  if (!kube::HasFinalizer(va.metadata, finalizer_)) patch.AddFinalizer(finalizer_);
  // The cached copy only tells whether the annotation needs writing; the
  // stored value is not tested. The value written is the node ID this sync
  // publishes with, just read from the CSINode: the one detach's fallback
  // needs (docs/attacher.md §5.4). A different stored value belongs to an
  // earlier publish, and a fresh copy showing one would only lead to this
  // same write, so a guard would cost a refusal and a GET for nothing (§7
  // row 3).
  auto annotated = va.metadata.annotations.find(kNodeIdAnnotation);
  if (annotated == va.metadata.annotations.end() || annotated->second != node_id) {
    patch.SetAnnotation(kNodeIdAnnotation, node_id);
  }
  if (patch.empty()) return base::Status::Ok();
  auto saved = api_.PatchVolumeAttachment(va.metadata.name, kube::PatchType::kStrategicMerge,
                                          patch.Serialize(), /*status=*/false);
  if (!saved.ok()) return saved.error().Wrap("could not save VolumeAttachment");
  return base::Status::Ok();
}

base::Status CsiHandler::FailAttach(const kube::VolumeAttachment& va, const base::Error& error) {
  std::optional<int32_t> code;
  if (options_.error_code_enabled && error.IsGrpc()) code = error.code;
  SaveError(va, AttachErrorPatch(va, MakeVolumeError(error.message, clock_.WallNow(), code)));
  if (options_.events) options_.events->AttachFailed(va, error.message);
  return error.Wrap("failed to attach");
}

base::Status CsiHandler::Detach(const kube::VolumeAttachment& va, bool forced) {
  const std::string& name = va.metadata.name;
  if (!forced && !kube::HasFinalizer(va.metadata, finalizer_)) {
    LOG_V(4, "Already detached").With("VolumeAttachment", name);
    return base::Status::Ok();
  }
  LOG_V(2, "Detaching").With("VolumeAttachment", name);
  auto request = PrepareDetach(va);
  if (!request.ok()) return FailDetach(va, request.error());
  if (auto unpublished = publisher_.Unpublish(*request); !unpublished.ok()) {
    return FailDetach(va, unpublished.error());
  }
  LOG_V(2, "Detached").With("VolumeAttachment", name);
  if (auto marked = MarkDetached(va); !marked.ok()) {
    return FailDetach(va, marked.error().Wrap("could not mark as detached"));
  }
  return base::Status::Ok();
}

base::Result<UnpublishRequest> CsiHandler::PrepareDetach(const kube::VolumeAttachment& va) {
  auto volume = VolumeOf(va, pvs_);
  if (!volume.ok()) return volume.error();
  auto csi = CsiVolumeOf(*volume);
  if (!csi.ok()) return csi.error();

  UnpublishRequest request;
  request.volume_id = csi->source->volume_handle;
  request.migrated = csi->migrated;
  auto secrets = LoadSecrets(*csi->source);
  if (!secrets.ok()) return secrets.error();
  request.secrets = std::move(*secrets);
  auto node_id = NodeIdOf(csi_nodes_, driver_name_, va.spec.node_name, &va);
  if (!node_id.ok()) return node_id.error();
  request.node_id = std::move(*node_id);
  return request;
}

// The finalizer goes first, in its own patch on the main resource: once it is
// gone a deleted VA disappears and no later sync can Unpublish again (the
// v4.9 fix for external-attacher#587). A VA that is gone already counts as
// detached.
base::Status CsiHandler::MarkDetached(const kube::VolumeAttachment& va) {
  const std::string& name = va.metadata.name;
  bool has_finalizer = kube::HasFinalizer(va.metadata, finalizer_);
  if (!has_finalizer && !va.status.attached) return base::Status::Ok();
  if (has_finalizer) {
    // Only ours goes, whatever the list holds by now (docs/attacher.md §7 row 3).
    auto patched = api_.PatchVolumeAttachment(
        name, kube::PatchType::kStrategicMerge,
        kube::StrategicMetadataPatch().RemoveFinalizer(finalizer_).Serialize(),
        /*status=*/false);
    if (!patched.ok()) {
      return kube::IsNotFound(patched.error()) ? base::Status::Ok() : patched.error();
    }
    // That was the last finalizer of a deleted VA: the API server removed the
    // object with this patch, so no status is left to write. Upstream writes
    // it anyway and gets a 404: one wasted request per detach, which halves
    // detach throughput under --kube-api-qps (README, deliberate differences).
    if (!patched->metadata.deletion_timestamp.empty() && patched->metadata.finalizers.empty()) {
      return base::Status::Ok();
    }
  }
  if (std::string patch = MarkDetachedPatch(va); !patch.empty()) {
    auto patched = api_.PatchVolumeAttachment(name, kube::PatchType::kMerge, patch, true);
    if (!patched.ok() && !kube::IsNotFound(patched.error())) return patched.error();
  }
  return base::Status::Ok();
}

base::Status CsiHandler::FailDetach(const kube::VolumeAttachment& va, const base::Error& error) {
  SaveError(va, DetachErrorPatch(va, MakeVolumeError(error.message, clock_.WallNow(),
                                                     /*error_code=*/std::nullopt)));
  if (options_.events) options_.events->DetachFailed(va, error.message);
  return error.Wrap("failed to detach");
}

base::Result<std::map<std::string, std::string>> CsiHandler::LoadSecrets(
    const kube::CSIPersistentVolumeSource& csi) {
  if (!csi.controller_publish_secret_ref) return std::map<std::string, std::string>();
  const kube::SecretReference& ref = *csi.controller_publish_secret_ref;
  auto secret = api_.GetSecret(ref.namespace_, ref.name);
  if (!secret.ok()) {
    return secret.error().Wrap("failed to load secret \"" + ref.namespace_ + "/" + ref.name + "\"");
  }
  return ToMap(secret->data);
}

void CsiHandler::SaveError(const kube::VolumeAttachment& va, const std::string& patch) {
  if (patch.empty()) return;
  auto saved = api_.PatchVolumeAttachment(va.metadata.name, kube::PatchType::kMerge, patch,
                                          /*status=*/true);
  if (!saved.ok()) {
    LOG_V(2, "Failed to save error in VolumeAttachment status")
        .With("VolumeAttachment", va.metadata.name)
        .With("err", saved.error().message);
  }
}

bool CsiHandler::LetsGoOf(const kube::PersistentVolume& pv) const {
  return !pv.metadata.deletion_timestamp.empty() || IsMigrationRollback(pv, driver_name_);
}

base::Status CsiHandler::SyncPersistentVolume(const kube::PersistentVolume& pv) {
  const std::string& name = pv.metadata.name;
  if (!LetsGoOf(pv) || !kube::HasFinalizer(pv.metadata, finalizer_)) return base::Status::Ok();
  for (const auto& va : vas_.List()) {
    if (va->spec.source.persistent_volume_name == name) {
      LOG_V(4, "PV still in use, keeping its finalizer")
          .With("PersistentVolume", name)
          .With("VolumeAttachment", va->metadata.name);
      return base::Status::Ok();
    }
  }
  // Only ours goes, wherever it now is in the list (docs/attacher.md §5.5).
  auto removed = api_.PatchPersistentVolume(
      name, kube::PatchType::kStrategicMerge,
      kube::StrategicMetadataPatch().RemoveFinalizer(finalizer_).Serialize());
  if (removed.ok()) {
    LOG_V(2, "Removed finalizer from PV").With("PersistentVolume", name);
    return base::Status::Ok();
  }
  // A PV that is gone holds no finalizer any more.
  if (kube::IsNotFound(removed.error())) return base::Status::Ok();
  return removed.error().Wrap("failed to remove finalizer from PersistentVolume \"" + name + "\"");
}

}  // namespace attacher
