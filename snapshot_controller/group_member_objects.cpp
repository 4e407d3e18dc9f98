#include "snapshot_controller/group_member_objects.h"

#include <openssl/evp.h>

#include <array>
#include <variant>

#include "csi_params/volumes.h"
#include "snapshot/names.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {
namespace {

std::string Sha256Hex(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

std::string MemberHash(std::string_view group_uid, std::string_view volume_handle) {
  return Sha256Hex(std::string(group_uid) + std::string(volume_handle));
}

}  // namespace

std::string MemberSnapshotName(std::string_view group_uid, std::string_view volume_handle) {
  return "snapshot-" + MemberHash(group_uid, volume_handle);
}

std::string MemberContentName(std::string_view group_uid, std::string_view volume_handle) {
  return "snapcontent-" + MemberHash(group_uid, volume_handle);
}

std::shared_ptr<const kube::PersistentVolume> VolumeOfHandle(
    const kube::Store<kube::PersistentVolume>& volumes, std::string_view driver,
    std::string_view volume_handle) {
  std::shared_ptr<const kube::PersistentVolume> found;
  for (auto& volume : volumes.List()) {
    const auto* csi = csi_params::CsiSourceOf(*volume);
    if (csi == nullptr || csi->driver != driver || csi->volume_handle != volume_handle) continue;
    if (found) return nullptr;
    found = std::move(volume);
  }
  return found;
}

kube::VolumeSnapshotContent MemberContentFor(const kube::VolumeGroupSnapshot& group,
                                             const kube::VolumeGroupSnapshotContent& content,
                                             const kube::VolumeSnapshotInfo& info,
                                             const kube::PersistentVolume* volume,
                                             const std::optional<kube::SecretReference>& secret) {
  kube::VolumeSnapshotContent member;
  member.metadata.name = MemberContentName(group.metadata.uid.str(), info.volume_handle);
  member.metadata.annotations[std::string(snapshot::kGroupSnapshotHandleAnnotation)] =
      content.status->volume_group_snapshot_handle.value_or("");
  kube::ObjectReference& ref = member.spec.volume_snapshot_ref;
  ref.kind = std::string(kube::VolumeSnapshot::kFacts.kind);
  ref.name = MemberSnapshotName(group.metadata.uid.str(), info.volume_handle);
  ref.namespace_ = content.spec.volume_group_snapshot_ref.namespace_;
  member.spec.deletion_policy = content.spec.deletion_policy;
  member.spec.driver = content.spec.driver;
  member.spec.source.volume_handle = info.volume_handle;
  if (volume && !volume->spec.volume_mode.empty()) {
    member.spec.source_volume_mode = volume->spec.volume_mode;
  }
  if (secret) {
    member.metadata.annotations[std::string(snapshot::kDeletionSecretNameAnnotation)] =
        secret->name;
    member.metadata.annotations[std::string(snapshot::kDeletionSecretNamespaceAnnotation)] =
        secret->namespace_;
  }
  return member;
}

kube::VolumeSnapshot MemberSnapshotFor(const kube::VolumeGroupSnapshot& group,
                                       const kube::VolumeGroupSnapshotContent& content,
                                       const kube::VolumeSnapshotInfo& info,
                                       const kube::PersistentVolume* volume) {
  kube::VolumeSnapshot member;
  member.metadata.name = MemberSnapshotName(group.metadata.uid.str(), info.volume_handle);
  member.metadata.namespace_ = content.spec.volume_group_snapshot_ref.namespace_;
  member.metadata.owner_references = {OwnerReferenceTo(group)};
  member.metadata.finalizers = {std::string(kSnapshotInGroupFinalizer)};
  member.metadata.has_finalizers_field = true;
  member.spec.source.persistent_volume_claim_name =
      volume && volume->spec.claim_ref ? volume->spec.claim_ref->name : "";
  return member;
}

std::optional<kube::VolumeSnapshotContentStatus> MemberContentStatus(
    const std::optional<kube::VolumeSnapshotContentStatus>& current,
    const kube::VolumeSnapshotInfo& info, const std::string& group_handle) {
  kube::VolumeSnapshotContentStatus status = current.value_or(kube::VolumeSnapshotContentStatus{});
  status.snapshot_handle = info.snapshot_handle;
  status.volume_group_snapshot_handle = group_handle;
  if (info.creation_time) status.creation_time = info.creation_time;
  if (info.restore_size) status.restore_size = info.restore_size;
  if (!status.ready_to_use.value_or(false)) status.ready_to_use = info.ready_to_use.value_or(false);
  if (current && status == *current) return std::nullopt;
  return status;
}

}  // namespace snapshot_controller
