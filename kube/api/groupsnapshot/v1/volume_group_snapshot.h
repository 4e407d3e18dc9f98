// VolumeGroupSnapshot (groupsnapshot.storage.k8s.io/v1, namespaced, status
// subresource): a user's request for a crash-consistent snapshot of the PVCs
// a label selector picks (source.selector), or to bind an existing group
// content (source.volumeGroupSnapshotContentName). The controller reconciles
// it and makes one member VolumeSnapshot per volume (docs/snapshots.md §4.7).
#pragma once

#include <optional>
#include <string>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/label_selector.h"
#include "kube/api/object_meta.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace kube {

// Exactly one is set (a CEL rule of the CRD); both are immutable.
struct VolumeGroupSnapshotSource {
  std::optional<LabelSelector> selector = {};
  std::optional<std::string> volume_group_snapshot_content_name = {};

  bool operator==(const VolumeGroupSnapshotSource&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("selector", &VolumeGroupSnapshotSource::selector),
        Field("volumeGroupSnapshotContentName",
              &VolumeGroupSnapshotSource::volume_group_snapshot_content_name),
    };
  }
};

struct VolumeGroupSnapshotSpec {
  VolumeGroupSnapshotSource source;
  std::optional<std::string> volume_group_snapshot_class_name = {};

  bool operator==(const VolumeGroupSnapshotSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("source", &VolumeGroupSnapshotSpec::source),
        Field("volumeGroupSnapshotClassName",
              &VolumeGroupSnapshotSpec::volume_group_snapshot_class_name),
    };
  }
};

struct VolumeGroupSnapshotStatus {
  std::optional<std::string> bound_volume_group_snapshot_content_name = {};  // immutable once set
  std::optional<std::string> creation_time = {};                             // RFC 3339
  std::optional<bool> ready_to_use = {};
  std::optional<VolumeSnapshotError> error = {};

  bool operator==(const VolumeGroupSnapshotStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("boundVolumeGroupSnapshotContentName",
              &VolumeGroupSnapshotStatus::bound_volume_group_snapshot_content_name),
        Field("creationTime", &VolumeGroupSnapshotStatus::creation_time),
        Field("readyToUse", &VolumeGroupSnapshotStatus::ready_to_use),
        Field("error", &VolumeGroupSnapshotStatus::error),
    };
  }
};

struct VolumeGroupSnapshot {
  static constexpr KindFacts kFacts{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                    .kind = "VolumeGroupSnapshot",
                                    .plural = "volumegroupsnapshots",
                                    .scope = Scope::kNamespaced,
                                    .status_subresource = true};

  ObjectMeta metadata;
  VolumeGroupSnapshotSpec spec;
  std::optional<VolumeGroupSnapshotStatus> status;

  bool operator==(const VolumeGroupSnapshot&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeGroupSnapshot::metadata),
        Field("spec", &VolumeGroupSnapshot::spec),
        Field("status", &VolumeGroupSnapshot::status),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeGroupSnapshot);
KUBE_EXTERN_CODEC(ObjectList<VolumeGroupSnapshot>);

}  // namespace kube
