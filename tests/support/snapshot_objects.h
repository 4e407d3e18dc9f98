// Small VolumeSnapshots, contents and classes for the unit tests of the two
// snapshot controllers' loops (the sidecar's and the snapshot-controller's):
// each valid, with resourceVersion "1", for the test to edit. Header-only:
// unit test binaries that do not link the test support library use it too.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace testsupport {

inline constexpr std::string_view kSnapshotDriver = "hostpath.csi.k8s.io";

// A dynamic content of `driver`, bound to VolumeSnapshot default/snap-1 (UID
// uid-1), not yet created (no status).
inline kube::VolumeSnapshotContent MakeContent(std::string name,
                                               std::string driver = std::string(kSnapshotDriver)) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = std::move(name);
  content.metadata.resource_version = "1";
  content.spec.driver = std::move(driver);
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.source.volume_handle = "vol-1";
  content.spec.volume_snapshot_ref.name = "snap-1";
  content.spec.volume_snapshot_ref.namespace_ = "default";
  content.spec.volume_snapshot_ref.uid = "uid-1";
  return content;
}

inline kube::VolumeSnapshotContent MakeReadyContent(std::string name) {
  kube::VolumeSnapshotContent content = MakeContent(std::move(name));
  content.status.emplace();
  content.status->snapshot_handle = "snap-handle";
  content.status->ready_to_use = true;
  return content;
}

inline kube::VolumeSnapshotClass MakeClass(std::string name, std::string driver) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = std::move(name);
  snapshot_class.metadata.resource_version = "1";
  snapshot_class.driver = std::move(driver);
  snapshot_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return snapshot_class;
}

// A VolumeSnapshot of claim "claim-1" in `ns`, UID "uid-<name>", not yet
// bound (no status).
inline kube::VolumeSnapshot MakeSnapshot(std::string ns, std::string name) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.uid = "uid-" + name;
  snapshot.metadata.name = std::move(name);
  snapshot.metadata.namespace_ = std::move(ns);
  snapshot.metadata.resource_version = "1";
  snapshot.spec.source.persistent_volume_claim_name = "claim-1";
  return snapshot;
}

// Bound to `content` and ready to use.
inline kube::VolumeSnapshot MakeReadySnapshot(std::string ns, std::string name,
                                              std::string content) {
  kube::VolumeSnapshot snapshot = MakeSnapshot(std::move(ns), std::move(name));
  snapshot.status.emplace();
  snapshot.status->bound_volume_snapshot_content_name = std::move(content);
  snapshot.status->ready_to_use = true;
  return snapshot;
}

// A group snapshot of the claims labelled app=db in `ns`, UID "uid-<name>",
// class "group-class", not yet bound (no status).
inline kube::VolumeGroupSnapshot MakeGroupSnapshot(std::string ns, std::string name) {
  kube::VolumeGroupSnapshot group;
  group.metadata.uid = "uid-" + name;
  group.metadata.name = std::move(name);
  group.metadata.namespace_ = std::move(ns);
  group.metadata.resource_version = "1";
  group.spec.source.selector = kube::LabelSelector{.match_labels = {{"app", "db"}}};
  group.spec.volume_group_snapshot_class_name = "group-class";
  return group;
}

// Bound to `content` and ready to use.
inline kube::VolumeGroupSnapshot MakeReadyGroupSnapshot(std::string ns, std::string name,
                                                        std::string content) {
  kube::VolumeGroupSnapshot group = MakeGroupSnapshot(std::move(ns), std::move(name));
  group.status.emplace();
  group.status->bound_volume_group_snapshot_content_name = std::move(content);
  group.status->ready_to_use = true;
  return group;
}

// A dynamic group content of volumes vol-1 and vol-2, bound to group
// snapshot default/group-1 (UID uid-group-1), not yet created (no status).
inline kube::VolumeGroupSnapshotContent MakeGroupContent(std::string name) {
  kube::VolumeGroupSnapshotContent content;
  content.metadata.name = std::move(name);
  content.metadata.resource_version = "1";
  content.spec.driver = std::string(kSnapshotDriver);
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.source.volume_handles = {"vol-1", "vol-2"};
  content.spec.volume_group_snapshot_ref.name = "group-1";
  content.spec.volume_group_snapshot_ref.namespace_ = "default";
  content.spec.volume_group_snapshot_ref.uid = "uid-group-1";
  return content;
}

}  // namespace testsupport
