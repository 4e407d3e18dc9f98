#include "bench/floor_snapshot_controller.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kube/api/codec.h"
#include "kube/api/json_patch.h"
#include "kube/api/merge_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "snapshot/names.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/dynamic_content.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/snapshot_status.h"

namespace bench {
namespace {

using snapshot_controller::kClaimAsSourceFinalizer;
using snapshot_controller::kSnapshotAsSourceFinalizer;
using snapshot_controller::kSnapshotBoundFinalizer;

std::string Key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

void DropFinalizer(kube::ObjectMeta& meta, std::string_view finalizer) {
  std::erase(meta.finalizers, std::string(finalizer));
}

}  // namespace

FloorSnapshotController::FloorSnapshotController(const snapshot::SnapshotClients& clients,
                                                 int workers)
    : snapshot_client_(*clients.snapshots),
      core_client_(*clients.core),
      pool_(
          {.name = "floor-snapshots",
           .workers = static_cast<uint32_t>(workers),
           .retry_start = std::chrono::milliseconds(5),
           .retry_max = std::chrono::milliseconds(1000)},
          kube::VolumeSnapshot::kFacts, base::Clock::Real(),
          [this](const std::string& key) { return kube::DoneOr(Sync(key)); },
          [](const std::string&) { return kube::WorkQueue::Lane::kNormal; }) {}

base::Result<std::unique_ptr<FloorSnapshotController>> FloorSnapshotController::Start(
    const snapshot::SnapshotClients& clients, int workers) {
  std::unique_ptr<FloorSnapshotController> floor(new FloorSnapshotController(clients, workers));
  auto classes = clients.snapshots->List<kube::VolumeSnapshotClass>("");
  if (!classes.ok()) return classes.error().Wrap("listing VolumeSnapshotClasses");
  for (auto& snapshot_class : classes->items) {
    floor->classes_[snapshot_class.metadata.name] = std::move(snapshot_class);
  }
  if (auto status = floor->StartWatches(); !status.ok()) return status.error();
  floor->runner_ = std::jthread([f = floor.get()](std::stop_token stop) { f->pool_.Run(stop); });
  return floor;
}

base::Status FloorSnapshotController::StartWatches() {
  // The snapshots last: their first syncs find the rest in the caches.
  auto claims = ObjectWatch<kube::PersistentVolumeClaim>::Start(
      core_client_, [this](const kube::PersistentVolumeClaim& claim, bool deleted) {
        std::string key = Key(claim.metadata.namespace_, claim.metadata.name);
        deleted ? claims_.Erase(key, claim) : claims_.Upsert(key, claim);
      });
  if (!claims.ok()) return claims.error();
  claim_watch_ = std::move(*claims);
  auto volumes = ObjectWatch<kube::PersistentVolume>::Start(
      core_client_, [this](const kube::PersistentVolume& volume, bool deleted) {
        deleted ? volumes_.Erase(volume.metadata.name, volume)
                : volumes_.Upsert(volume.metadata.name, volume);
      });
  if (!volumes.ok()) return volumes.error();
  volume_watch_ = std::move(*volumes);
  auto contents = ObjectWatch<kube::VolumeSnapshotContent>::Start(
      snapshot_client_, [this](const kube::VolumeSnapshotContent& content, bool deleted) {
        deleted ? contents_.Erase(content.metadata.name, content)
                : contents_.Upsert(content.metadata.name, content);
        const auto& ref = content.spec.volume_snapshot_ref;
        pool_.queue().Add(Key(ref.namespace_, ref.name));
      });
  if (!contents.ok()) return contents.error();
  content_watch_ = std::move(*contents);
  auto snapshots = ObjectWatch<kube::VolumeSnapshot>::Start(
      snapshot_client_, [this](const kube::VolumeSnapshot& snapshot, bool deleted) {
        std::string key = Key(snapshot.metadata.namespace_, snapshot.metadata.name);
        deleted ? snapshots_.Erase(key, snapshot) : snapshots_.Upsert(key, snapshot);
        pool_.queue().Add(key);
      });
  if (!snapshots.ok()) return snapshots.error();
  snapshot_watch_ = std::move(*snapshots);
  return {};
}

FloorSnapshotController::~FloorSnapshotController() {
  snapshot_watch_.reset();
  content_watch_.reset();
  volume_watch_.reset();
  claim_watch_.reset();
  runner_.request_stop();
  if (runner_.joinable()) runner_.join();
}

base::Status FloorSnapshotController::Sync(const std::string& key) {
  auto snapshot = snapshots_.Get(key);
  if (!snapshot || !snapshot->spec.source.persistent_volume_claim_name) return {};
  auto content = contents_.Get(snapshot_controller::DynamicContentNameFor(*snapshot));
  if (!snapshot->metadata.deletion_timestamp.empty()) return Delete(*snapshot, content);
  if (auto status = AddSnapshotFinalizers(*snapshot); !status.ok()) return status;
  if (!content) return CreateContent(*snapshot);
  bool content_ready = content->status && content->status->ready_to_use == true;
  bool snapshot_ready = snapshot->status && snapshot->status->ready_to_use == true;
  if (content_ready && !snapshot_ready) return MarkReady(*snapshot, *content);
  return {};
}

base::Status FloorSnapshotController::AddSnapshotFinalizers(kube::VolumeSnapshot& snapshot) {
  kube::ObjectMeta meta = snapshot.metadata;
  kube::JsonPatch patch;
  for (std::string_view finalizer : {kSnapshotAsSourceFinalizer, kSnapshotBoundFinalizer}) {
    // Each op sees the list as the ops before it left it.
    kube::AddFinalizerOps(meta, finalizer, patch);
    if (!kube::HasFinalizer(meta, finalizer)) meta.finalizers.emplace_back(finalizer);
    meta.has_finalizers_field = true;
  }
  if (patch.empty()) return {};
  auto patched = snapshot_client_.Patch<kube::VolumeSnapshot>(
      snapshot.metadata.namespace_, snapshot.metadata.name, kube::PatchType::kJson,
      patch.Serialize());
  if (!patched.ok()) return patched.error();
  snapshots_.Upsert(Key(patched->metadata.namespace_, patched->metadata.name), *patched);
  snapshot = *patched;
  return {};
}

base::Status FloorSnapshotController::CreateContent(const kube::VolumeSnapshot& snapshot) {
  if (auto status = SetClaimFinalizer(snapshot, true); !status.ok()) return status;
  const std::string& claim_name = *snapshot.spec.source.persistent_volume_claim_name;
  auto claim = claims_.Get(Key(snapshot.metadata.namespace_, claim_name));
  if (!claim) return base::Error("claim " + claim_name + " not in the cache");
  auto volume = volumes_.Get(claim->spec.volume_name);
  if (!volume) return base::Error("volume " + claim->spec.volume_name + " not in the cache");
  auto snapshot_class = classes_.find(snapshot.spec.volume_snapshot_class_name.value_or(""));
  if (snapshot_class == classes_.end()) return base::Error("the snapshot names no known class");
  auto content = snapshot_controller::DynamicContentFor(snapshot, snapshot_class->second, *volume,
                                                        {.prevent_volume_mode_conversion = true});
  if (!content.ok()) return content.error();
  auto created = snapshot_client_.Create(*content);
  if (!created.ok()) return created.error();
  contents_.Upsert(created->metadata.name, *created);
  return {};
}

base::Status FloorSnapshotController::MarkReady(const kube::VolumeSnapshot& snapshot,
                                                const kube::VolumeSnapshotContent& content) {
  if (auto change = snapshot_controller::SnapshotStatusFromContent(snapshot, content, "")) {
    nlohmann::json status = change->status;
    auto patched = snapshot_client_.PatchStatus<kube::VolumeSnapshot>(
        snapshot.metadata.namespace_, snapshot.metadata.name, kube::PatchType::kMerge,
        nlohmann::json{{"status", status}}.dump());
    if (!patched.ok()) return patched.error();
    snapshots_.Upsert(Key(patched->metadata.namespace_, patched->metadata.name), *patched);
  }
  return SetClaimFinalizer(snapshot, false);
}

base::Status FloorSnapshotController::Delete(
    const kube::VolumeSnapshot& snapshot,
    const std::optional<kube::VolumeSnapshotContent>& content) {
  if (content) {
    if (!content->metadata.deletion_timestamp.empty()) return {};  // its deletion requeues us
    kube::JsonPatch annotate;
    kube::SetAnnotationOps(content->metadata, snapshot::kBeingDeletedAnnotation, "yes", annotate);
    if (!annotate.empty()) {
      auto patched = snapshot_client_.Patch<kube::VolumeSnapshotContent>(
          "", content->metadata.name, kube::PatchType::kJson, annotate.Serialize());
      if (!patched.ok()) return patched.error();
      contents_.Upsert(patched->metadata.name, *patched);
    }
    {
      // The content's copy shows the deletion only once the watch brings it.
      std::lock_guard lock(mu_);
      if (deleting_.contains(content->metadata.name)) return {};
    }
    auto deleted = snapshot_client_.Delete<kube::VolumeSnapshotContent>("", content->metadata.name);
    if (!deleted.ok() && !kube::IsNotFound(deleted.error())) return deleted;
    std::lock_guard lock(mu_);
    deleting_.insert(content->metadata.name);
    return {};
  }
  if (!kube::HasFinalizer(snapshot.metadata, kSnapshotAsSourceFinalizer) &&
      !kube::HasFinalizer(snapshot.metadata, kSnapshotBoundFinalizer)) {
    return {};
  }
  kube::ObjectMeta meta = snapshot.metadata;
  DropFinalizer(meta, kSnapshotAsSourceFinalizer);
  DropFinalizer(meta, kSnapshotBoundFinalizer);
  auto patched = snapshot_client_.Patch<kube::VolumeSnapshot>(
      snapshot.metadata.namespace_, snapshot.metadata.name, kube::PatchType::kMerge,
      kube::CreateMergePatch("metadata", snapshot.metadata, meta).dump());
  if (!patched.ok() && !kube::IsNotFound(patched.error())) return patched.error();
  return {};
}

base::Status FloorSnapshotController::SetClaimFinalizer(const kube::VolumeSnapshot& snapshot,
                                                        bool add) {
  const std::string key =
      Key(snapshot.metadata.namespace_, *snapshot.spec.source.persistent_volume_claim_name);
  auto claim = claims_.Get(key);
  if (!claim) return base::Error("claim " + key + " not in the cache");
  if (kube::HasFinalizer(claim->metadata, kClaimAsSourceFinalizer) == add) return {};
  if (add) {
    claim->metadata.finalizers.emplace_back(kClaimAsSourceFinalizer);
  } else {
    DropFinalizer(claim->metadata, kClaimAsSourceFinalizer);
  }
  auto updated = core_client_.Update(*claim);
  if (!updated.ok()) return updated.error();
  claims_.Upsert(key, *updated);
  return {};
}

}  // namespace bench
