// Group objects shared by the snapshot-controller's group handler tests. The
// defaults describe one healthy dynamic group snapshot before the controller
// has seen it: VolumeGroupSnapshot default/group-1 (UID kGroupUid,
// resourceVersion 5, class "group-gold") of the claims labelled app=db,
// claim-1 and claim-2, each Bound to a CSI volume of driver csi.example.com
// (pv-1 with handle vol-1, pv-2 with vol-2); class "group-gold" of that driver
// with policy Delete; and its group content "groupsnapcontent-<kGroupUid>" as
// the controller creates it. Each case edits what it is about.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/names.h"
#include "tests/unit/snapshot_controller/objects.h"

namespace snapshot_controller::testing {

inline constexpr std::string_view kGroupUid = "9a1b2c3d-0000-4000-8000-0000000000b2";
inline const std::string kGroupContentName = "groupsnapcontent-" + std::string(kGroupUid);
inline const std::string kGroupKey = "default/group-1";

inline kube::VolumeGroupSnapshot GroupSnapshot(const Edit<kube::VolumeGroupSnapshot>& edit = {}) {
  kube::VolumeGroupSnapshot group;
  group.metadata.name = "group-1";
  group.metadata.namespace_ = "default";
  group.metadata.uid = std::string(kGroupUid);
  group.metadata.resource_version = "5";
  group.spec.source.selector = kube::LabelSelector{.match_labels = {{"app", "db"}}};
  group.spec.volume_group_snapshot_class_name = "group-gold";
  return Edited(std::move(group), edit);
}

inline kube::VolumeGroupSnapshotClass GroupClass(
    const Edit<kube::VolumeGroupSnapshotClass>& edit = {}) {
  kube::VolumeGroupSnapshotClass group_class;
  group_class.metadata.name = "group-gold";
  group_class.driver = std::string(kDriver);
  group_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return Edited(std::move(group_class), edit);
}

// Claim `n` of the group (claim-<n>, labelled app=db), Bound to pv-<n>.
inline kube::PersistentVolumeClaim GroupClaim(int n,
                                              const Edit<kube::PersistentVolumeClaim>& edit = {}) {
  kube::PersistentVolumeClaim claim = Claim([n](kube::PersistentVolumeClaim& c) {
    c.metadata.name = "claim-" + std::to_string(n);
    c.metadata.uid = "claim-uid-" + std::to_string(n);
    c.metadata.labels = {{"app", "db"}};
    c.spec.volume_name = "pv-" + std::to_string(n);
  });
  return Edited(std::move(claim), edit);
}

// Volume `n` of the group: pv-<n>, handle vol-<n>, bound to claim-<n>.
inline kube::PersistentVolume GroupVolume(int n, const Edit<kube::PersistentVolume>& edit = {}) {
  kube::PersistentVolume volume = Volume([n](kube::PersistentVolume& v) {
    v.metadata.name = "pv-" + std::to_string(n);
    v.spec.claim_ref->name = "claim-" + std::to_string(n);
    v.spec.claim_ref->uid = "claim-uid-" + std::to_string(n);
    std::get<kube::CSIPersistentVolumeSource>(v.spec.source).volume_handle =
        "vol-" + std::to_string(n);
  });
  return Edited(std::move(volume), edit);
}

// Makes a snapshot a member of the default group snapshot as the controller
// makes members: owned by it, the in-group and as-source finalizers, no class.
inline void OwnedByGroup(kube::VolumeSnapshot& s) {
  s.metadata.owner_references = {{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                  .kind = "VolumeGroupSnapshot",
                                  .name = "group-1",
                                  .uid = std::string(kGroupUid)}};
  s.metadata.finalizers = {std::string(kSnapshotInGroupFinalizer),
                           std::string(kSnapshotAsSourceFinalizer)};
  s.spec.volume_snapshot_class_name.reset();
}

// The dynamic group content of the default group snapshot, as the
// controller creates it (the API server's copy has resourceVersion 60).
inline kube::VolumeGroupSnapshotContent GroupContent(
    const Edit<kube::VolumeGroupSnapshotContent>& edit = {}) {
  kube::VolumeGroupSnapshotContent content;
  content.metadata.name = kGroupContentName;
  content.metadata.resource_version = "60";
  auto& ref = content.spec.volume_group_snapshot_ref;
  ref.kind = "VolumeGroupSnapshot";
  ref.namespace_ = "default";
  ref.name = "group-1";
  ref.uid = std::string(kGroupUid);
  ref.api_version = "groupsnapshot.storage.k8s.io/v1";
  ref.resource_version = "5";
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.driver = std::string(kDriver);
  content.spec.volume_group_snapshot_class_name = "group-gold";
  content.spec.source.volume_handles = {"vol-1", "vol-2"};
  return Edited(std::move(content), edit);
}

// The group content once the sidecar reported the group: handle
// "group-handle", one entry per volume (snapshot handles snap-vol-<n>,
// creationTime 1700000000 s, 1 GiB), all `ready`.
inline kube::VolumeGroupSnapshotContent ReportedGroupContent(
    bool ready, const Edit<kube::VolumeGroupSnapshotContent>& edit = {}) {
  kube::VolumeGroupSnapshotContent content = GroupContent();
  content.status.emplace();
  content.status->volume_group_snapshot_handle = "group-handle";
  content.status->creation_time = "2023-11-14T22:13:20Z";
  content.status->ready_to_use = ready;
  for (int n : {1, 2}) {
    content.status->volume_snapshot_info_list.push_back(
        {.volume_handle = "vol-" + std::to_string(n),
         .snapshot_handle = "snap-vol-" + std::to_string(n),
         .creation_time = 1700000000000000000,
         .ready_to_use = ready,
         .restore_size = 1073741824});
  }
  return Edited(std::move(content), edit);
}

}  // namespace snapshot_controller::testing
