#include "bench/snapshot_objects.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "bench/bound_claim.h"
#include "bench/objects.h"
#include "kube/api/codec.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/dynamic_content.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/snapshot_status.h"
#include "snapshotter/content_status.h"

namespace bench {
namespace {

kube::VolumeSnapshotClass SnapshotClass() {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = kSnapshotClassName;
  snapshot_class.driver = kDriverName;
  snapshot_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return snapshot_class;
}

BoundClaimSpec SourceClaim(const std::string& name, const std::string& handle) {
  return {.ns = kSnapshotNamespace, .name = name, .handle = handle};
}

std::string StatusMergePatch(const nlohmann::json& status) {
  return nlohmann::json{{"status", status}}.dump();
}

}  // namespace

base::Status CreateSnapshotClass(kube::Client& admin) {
  auto created = admin.Create(SnapshotClass());
  if (!created.ok()) return created.error().Wrap("creating the VolumeSnapshotClass");
  return {};
}

base::Status CreateSource(kube::Client& admin, const std::string& name, const std::string& handle) {
  return CreateBoundClaim(admin, SourceClaim(name, handle));
}

base::Result<kube::VolumeSnapshot> CreateVolumeSnapshot(kube::Client& admin,
                                                        const std::string& name,
                                                        const std::string& source) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = kSnapshotNamespace;
  snapshot.metadata.name = name;
  snapshot.spec.source.persistent_volume_claim_name = source;
  snapshot.spec.volume_snapshot_class_name = kSnapshotClassName;
  auto created = admin.Create(snapshot);
  if (!created.ok()) return created.error().Wrap("creating VolumeSnapshot " + name);
  return created;
}

base::Status CreateReadySnapshot(kube::Client& admin, const std::string& name) {
  if (auto status = CreateSource(admin, name, "volume-" + name); !status.ok()) return status;
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = kSnapshotNamespace;
  snapshot.metadata.name = name;
  snapshot.metadata.finalizers = {std::string(snapshot_controller::kSnapshotAsSourceFinalizer),
                                  std::string(snapshot_controller::kSnapshotBoundFinalizer)};
  snapshot.spec.source.persistent_volume_claim_name = name;
  snapshot.spec.volume_snapshot_class_name = kSnapshotClassName;
  auto created = admin.Create(snapshot);
  if (!created.ok()) return created.error().Wrap("creating VolumeSnapshot " + name);

  auto content = snapshot_controller::DynamicContentFor(
      *created, SnapshotClass(), BoundVolume(SourceClaim(name, "volume-" + name), ""),
      {.prevent_volume_mode_conversion = true});
  if (!content.ok()) return content.error();
  auto stored = admin.Create(*content);
  if (!stored.ok()) return stored.error().Wrap("creating content " + content->metadata.name);
  auto now = std::chrono::system_clock::now().time_since_epoch();
  auto status = snapshotter::StatusWithSnapshot(
      std::nullopt,
      {.snapshot_handle = "pre-" + name,
       .ready_to_use = true,
       .creation_time = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count(),
       .restore_size = int64_t{1} << 30});
  auto ready = admin.PatchStatus<kube::VolumeSnapshotContent>(
      "", stored->metadata.name, kube::PatchType::kMerge, StatusMergePatch(*status));
  if (!ready.ok()) return ready.error().Wrap("marking content " + stored->metadata.name + " ready");

  auto copied = snapshot_controller::SnapshotStatusFromContent(*created, *ready, "");
  if (!copied) return base::Error("no status to copy to VolumeSnapshot " + name);
  auto bound = admin.PatchStatus<kube::VolumeSnapshot>(
      kSnapshotNamespace, name, kube::PatchType::kMerge, StatusMergePatch(copied->status));
  if (!bound.ok()) return bound.error().Wrap("marking VolumeSnapshot " + name + " ready");
  return {};
}

base::Status CreateDynamicContent(kube::Client& admin, const std::string& name,
                                  const std::string& handle, const std::string& snapshot_uid) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = name;
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.driver = kDriverName;
  content.spec.volume_snapshot_class_name = kSnapshotClassName;
  content.spec.source.volume_handle = handle;
  content.spec.volume_snapshot_ref.name = name;
  content.spec.volume_snapshot_ref.namespace_ = kSnapshotNamespace;
  content.spec.volume_snapshot_ref.uid = snapshot_uid;
  auto created = admin.Create(content);
  if (!created.ok()) return created.error().Wrap("creating content " + name);
  return {};
}

base::Status DeleteVolumeSnapshot(kube::Client& admin, const std::string& name) {
  return admin.Delete<kube::VolumeSnapshot>(kSnapshotNamespace, name);
}

}  // namespace bench
