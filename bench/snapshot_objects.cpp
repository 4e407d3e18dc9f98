#include "bench/snapshot_objects.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "bench/objects.h"
#include "kube/api/codec.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/dynamic_content.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/snapshot_status.h"
#include "snapshotter/content_status.h"
#include "tests/support/test_objects.h"

namespace bench {
namespace {

kube::VolumeSnapshotClass SnapshotClass() {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = kSnapshotClassName;
  snapshot_class.driver = kDriverName;
  snapshot_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return snapshot_class;
}

kube::PersistentVolume SourceVolume(const std::string& name, const std::string& handle,
                                    const std::string& claim_uid) {
  kube::PersistentVolume volume = kube::testobjects::CsiPv(name, kDriverName, handle);
  volume.spec.claim_ref =
      kube::ClaimReference{.namespace_ = kSnapshotNamespace, .name = name, .uid = claim_uid};
  return volume;
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
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = kSnapshotNamespace;
  claim.metadata.name = name;
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.storage_class_name = "";  // static binding, no provisioner
  claim.spec.volume_name = name;
  auto pvc = admin.Create(claim);
  if (!pvc.ok()) return pvc.error().Wrap("creating PVC " + name);
  auto pv = admin.Create(SourceVolume(name, handle, pvc->metadata.uid.str()));
  if (!pv.ok()) return pv.error().Wrap("creating PV " + name);
  // No kube-controller-manager runs: the binding's status is ours to write.
  pvc->status.phase = "Bound";
  if (auto bound = admin.UpdateStatus(*pvc); !bound.ok()) {
    return bound.error().Wrap("marking PVC " + name + " Bound");
  }
  pv->status.phase = "Bound";
  if (auto bound = admin.UpdateStatus(*pv); !bound.ok()) {
    return bound.error().Wrap("marking PV " + name + " Bound");
  }
  return {};
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

  auto content = snapshot_controller::DynamicContentFor(*created, SnapshotClass(),
                                                        SourceVolume(name, "volume-" + name, ""),
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

base::Status DeleteVolumeSnapshot(kube::Client& admin, const std::string& name) {
  return admin.Delete<kube::VolumeSnapshot>(kSnapshotNamespace, name);
}

}  // namespace bench
