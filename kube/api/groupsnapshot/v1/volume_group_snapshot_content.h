// VolumeGroupSnapshotContent (groupsnapshot.storage.k8s.io/v1, cluster-scoped,
// status subresource): one group snapshot on the storage backend, made from
// volumes (source.volumeHandles) or imported (source.groupSnapshotHandles).
// The sidecar creates, polls and deletes it and writes its status, one
// VolumeSnapshotInfo per member; the controller creates and binds it and
// makes the member contents and snapshots (docs/snapshots.md §2, §3.8, §4.7).
// The CRD stores v1beta2; v1 is served with the same fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace kube {

// A pre-provisioned group: the group's handle and its members' snapshot handles.
struct GroupSnapshotHandles {
  std::string volume_group_snapshot_handle;
  std::vector<std::string> volume_snapshot_handles = {};

  bool operator==(const GroupSnapshotHandles&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeGroupSnapshotHandle", &GroupSnapshotHandles::volume_group_snapshot_handle,
              Emit::kAlways),
        Field("volumeSnapshotHandles", &GroupSnapshotHandles::volume_snapshot_handles,
              Emit::kAlways),
    };
  }
};

// Exactly one is set (a CEL rule of the CRD).
struct VolumeGroupSnapshotContentSource {
  std::vector<std::string> volume_handles = {};
  std::optional<GroupSnapshotHandles> group_snapshot_handles = {};

  bool operator==(const VolumeGroupSnapshotContentSource&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeHandles", &VolumeGroupSnapshotContentSource::volume_handles),
        Field("groupSnapshotHandles", &VolumeGroupSnapshotContentSource::group_snapshot_handles),
    };
  }
};

struct VolumeGroupSnapshotContentSpec {
  ObjectReference volume_group_snapshot_ref;
  std::string deletion_policy;  // kDeletionPolicyDelete or kDeletionPolicyRetain
  std::string driver;
  std::optional<std::string> volume_group_snapshot_class_name = {};
  VolumeGroupSnapshotContentSource source;

  bool operator==(const VolumeGroupSnapshotContentSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeGroupSnapshotRef", &VolumeGroupSnapshotContentSpec::volume_group_snapshot_ref),
        Field("deletionPolicy", &VolumeGroupSnapshotContentSpec::deletion_policy),
        Field("driver", &VolumeGroupSnapshotContentSpec::driver),
        Field("volumeGroupSnapshotClassName",
              &VolumeGroupSnapshotContentSpec::volume_group_snapshot_class_name),
        Field("source", &VolumeGroupSnapshotContentSpec::source),
    };
  }
};

// One member of a group as the driver reported it.
struct VolumeSnapshotInfo {
  std::string volume_handle;
  std::string snapshot_handle;
  std::optional<int64_t> creation_time = {};  // Unix nanoseconds
  std::optional<bool> ready_to_use = {};
  std::optional<int64_t> restore_size = {};  // bytes

  bool operator==(const VolumeSnapshotInfo&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeHandle", &VolumeSnapshotInfo::volume_handle),
        Field("snapshotHandle", &VolumeSnapshotInfo::snapshot_handle),
        Field("creationTime", &VolumeSnapshotInfo::creation_time),
        Field("readyToUse", &VolumeSnapshotInfo::ready_to_use),
        Field("restoreSize", &VolumeSnapshotInfo::restore_size),
    };
  }
};

struct VolumeGroupSnapshotContentStatus {
  std::optional<std::string> volume_group_snapshot_handle = {};
  std::optional<std::string> creation_time = {};  // RFC 3339 (unlike a content's Unix ns)
  std::optional<bool> ready_to_use = {};
  std::optional<VolumeSnapshotError> error = {};
  std::vector<VolumeSnapshotInfo> volume_snapshot_info_list = {};

  bool operator==(const VolumeGroupSnapshotContentStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeGroupSnapshotHandle",
              &VolumeGroupSnapshotContentStatus::volume_group_snapshot_handle),
        Field("creationTime", &VolumeGroupSnapshotContentStatus::creation_time),
        Field("readyToUse", &VolumeGroupSnapshotContentStatus::ready_to_use),
        Field("error", &VolumeGroupSnapshotContentStatus::error),
        Field("volumeSnapshotInfoList",
              &VolumeGroupSnapshotContentStatus::volume_snapshot_info_list),
    };
  }
};

struct VolumeGroupSnapshotContent {
  static constexpr KindFacts kFacts{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                    .kind = "VolumeGroupSnapshotContent",
                                    .plural = "volumegroupsnapshotcontents",
                                    .scope = Scope::kCluster,
                                    .status_subresource = true};

  ObjectMeta metadata;
  VolumeGroupSnapshotContentSpec spec;
  std::optional<VolumeGroupSnapshotContentStatus> status;  // nil until the sidecar writes it

  bool operator==(const VolumeGroupSnapshotContent&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeGroupSnapshotContent::metadata),
        Field("spec", &VolumeGroupSnapshotContent::spec),
        Field("status", &VolumeGroupSnapshotContent::status),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeGroupSnapshotContent);
KUBE_EXTERN_CODEC(ObjectList<VolumeGroupSnapshotContent>);

}  // namespace kube
