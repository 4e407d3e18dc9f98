// VolumeSnapshot (snapshot.storage.k8s.io/v1, namespaced, status subresource):
// a user's request for a snapshot of a PVC (source.persistentVolumeClaimName)
// or to bind an existing content (source.volumeSnapshotContentName). The
// controller reconciles it; the sidecar never reads it (docs/snapshots.md §2).
#pragma once

#include <optional>
#include <string>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace kube {

// Exactly one is set (a CEL rule of the CRD).
struct VolumeSnapshotSource {
  std::optional<std::string> persistent_volume_claim_name;
  std::optional<std::string> volume_snapshot_content_name;

  bool operator==(const VolumeSnapshotSource&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("persistentVolumeClaimName", &VolumeSnapshotSource::persistent_volume_claim_name),
        Field("volumeSnapshotContentName", &VolumeSnapshotSource::volume_snapshot_content_name),
    };
  }
};

struct VolumeSnapshotSpec {
  VolumeSnapshotSource source;
  std::optional<std::string> volume_snapshot_class_name;

  bool operator==(const VolumeSnapshotSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("source", &VolumeSnapshotSpec::source),
        Field("volumeSnapshotClassName", &VolumeSnapshotSpec::volume_snapshot_class_name),
    };
  }
};

// Members default to {} so designated initialisers may name only some.
struct VolumeSnapshotStatus {
  std::optional<std::string> bound_volume_snapshot_content_name = {};
  std::optional<std::string> creation_time = {};  // RFC 3339
  std::optional<bool> ready_to_use = {};
  std::optional<std::string> restore_size = {};  // a resource quantity, e.g. "1Gi"
  std::optional<VolumeSnapshotError> error = {};
  std::optional<std::string> volume_group_snapshot_name = {};

  bool operator==(const VolumeSnapshotStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("boundVolumeSnapshotContentName",
              &VolumeSnapshotStatus::bound_volume_snapshot_content_name),
        Field("creationTime", &VolumeSnapshotStatus::creation_time),
        Field("readyToUse", &VolumeSnapshotStatus::ready_to_use),
        Field("restoreSize", &VolumeSnapshotStatus::restore_size),
        Field("error", &VolumeSnapshotStatus::error),
        Field("volumeGroupSnapshotName", &VolumeSnapshotStatus::volume_group_snapshot_name),
    };
  }
};

struct VolumeSnapshot {
  static constexpr KindFacts kFacts{.api_version = "snapshot.storage.k8s.io/v1",
                                    .kind = "VolumeSnapshot",
                                    .plural = "volumesnapshots",
                                    .scope = Scope::kNamespaced,
                                    .status_subresource = true};

  ObjectMeta metadata;
  VolumeSnapshotSpec spec;
  std::optional<VolumeSnapshotStatus> status;

  bool operator==(const VolumeSnapshot&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeSnapshot::metadata),
        Field("spec", &VolumeSnapshot::spec),
        Field("status", &VolumeSnapshot::status),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeSnapshot);
KUBE_EXTERN_CODEC(ObjectList<VolumeSnapshot>);

}  // namespace kube
