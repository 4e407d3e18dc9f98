// Objects shared by the snapshot-controller's handler tests. The defaults
// describe one healthy dynamic snapshot before the controller has seen it:
// VolumeSnapshot default/snap-1 (UID kSnapshotUid, resourceVersion 5, class
// "gold") of claim default/claim-1, Bound to the CSI volume "pv-1" (handle
// "vol-1") of driver csi.example.com; class "gold" of that driver with
// policy Delete; and its content "snapcontent-<kSnapshotUid>" as the
// controller creates it. Each case edits what it is about.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshot_controller::testing {

inline constexpr std::string_view kDriver = "csi.example.com";
inline constexpr std::string_view kSnapshotUid = "6f1c2a3b-0000-4000-8000-0000000000a1";
inline const std::string kContentName = "snapcontent-" + std::string(kSnapshotUid);
inline constexpr std::string_view kClaimUid = "c1a1-0000";
// When a case marks an object for deletion.
inline constexpr char kDeletionTimestamp[] = "2024-01-01T00:00:00Z";

template <class T>
using Edit = std::function<void(T&)>;

template <class T>
T Edited(T object, const Edit<T>& edit) {
  if (edit) edit(object);
  return object;
}

inline kube::VolumeSnapshot Snapshot(const Edit<kube::VolumeSnapshot>& edit = {}) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.name = "snap-1";
  snapshot.metadata.namespace_ = "default";
  snapshot.metadata.uid = std::string(kSnapshotUid);
  snapshot.metadata.resource_version = "5";
  snapshot.spec.source.persistent_volume_claim_name = "claim-1";
  snapshot.spec.volume_snapshot_class_name = "gold";
  return Edited(std::move(snapshot), edit);
}

inline kube::PersistentVolumeClaim Claim(const Edit<kube::PersistentVolumeClaim>& edit = {}) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.name = "claim-1";
  claim.metadata.namespace_ = "default";
  claim.metadata.uid = std::string(kClaimUid);
  claim.metadata.resource_version = "20";
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.volume_name = "pv-1";
  claim.status.phase = "Bound";
  return Edited(std::move(claim), edit);
}

inline kube::PersistentVolume Volume(const Edit<kube::PersistentVolume>& edit = {}) {
  kube::PersistentVolume volume;
  volume.metadata.name = "pv-1";
  volume.metadata.resource_version = "30";
  volume.spec.capacity_storage = "1Gi";
  volume.spec.access_modes = {"ReadWriteOnce"};
  volume.spec.claim_ref = kube::ClaimReference{
      .namespace_ = "default", .name = "claim-1", .uid = std::string(kClaimUid)};
  volume.spec.persistent_volume_reclaim_policy = "Delete";
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kDriver);
  csi.volume_handle = "vol-1";
  volume.spec.source = csi;
  volume.status.phase = "Bound";
  return Edited(std::move(volume), edit);
}

inline kube::VolumeSnapshotClass Class(const Edit<kube::VolumeSnapshotClass>& edit = {}) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = "gold";
  snapshot_class.driver = std::string(kDriver);
  snapshot_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return Edited(std::move(snapshot_class), edit);
}

// The dynamic content of the default snapshot, as the controller creates it
// (the API server's copy has resourceVersion 40).
inline kube::VolumeSnapshotContent Content(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = kContentName;
  content.metadata.resource_version = "40";
  auto& ref = content.spec.volume_snapshot_ref;
  ref.kind = "VolumeSnapshot";
  ref.namespace_ = "default";
  ref.name = "snap-1";
  ref.uid = std::string(kSnapshotUid);
  ref.api_version = "snapshot.storage.k8s.io/v1";
  ref.resource_version = "5";
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.driver = std::string(kDriver);
  content.spec.volume_snapshot_class_name = "gold";
  content.spec.source.volume_handle = "vol-1";
  return Edited(std::move(content), edit);
}

// A pre-provisioned content "imported-1" for an existing backend snapshot,
// naming default/snap-1 without a UID (not yet bound).
inline kube::VolumeSnapshotContent ImportedContent(
    const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "imported-1";
  content.metadata.resource_version = "50";
  auto& ref = content.spec.volume_snapshot_ref;
  ref.namespace_ = "default";
  ref.name = "snap-1";
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain);
  content.spec.driver = std::string(kDriver);
  content.spec.source.snapshot_handle = "backend-snap-1";
  return Edited(std::move(content), edit);
}

// A snapshot of the default namespace asking to bind "imported-1".
inline kube::VolumeSnapshot ImportingSnapshot(const Edit<kube::VolumeSnapshot>& edit = {}) {
  kube::VolumeSnapshot snapshot = Snapshot([](kube::VolumeSnapshot& s) {
    s.spec.source = {.persistent_volume_claim_name = std::nullopt,
                     .volume_snapshot_content_name = "imported-1"};
    s.spec.volume_snapshot_class_name.reset();
  });
  return Edited(std::move(snapshot), edit);
}

inline kube::Node NodeWithLabels(std::string name, kube::StringMap labels) {
  kube::Node node;
  node.metadata.name = std::move(name);
  node.metadata.labels = std::move(labels);
  return node;
}

}  // namespace snapshot_controller::testing
