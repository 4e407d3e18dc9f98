// VolumeSnapshotContent (snapshot.storage.k8s.io/v1, cluster-scoped, status
// subresource): one snapshot on the storage backend, made dynamically from a
// volume (source.volumeHandle) or imported (source.snapshotHandle). The
// sidecar creates, polls and deletes the snapshot it names and writes its
// status; the controller creates and binds it (docs/snapshots.md §2).
//
// Every optional field stays std::optional: the sidecar's decisions turn on
// "status is nil" and "readyToUse is unset", not on zero values. Members
// default to {} so designated initialisers may name only some.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/field.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"

namespace kube {

// deletionPolicy of contents and classes.
inline constexpr std::string_view kDeletionPolicyDelete = "Delete";
inline constexpr std::string_view kDeletionPolicyRetain = "Retain";

// Exactly one is set (a CEL rule of the CRD). Dynamic snapshots, nearly all
// of a cache, name a volume: the snapshot handle of imported ones costs them
// a pointer.
struct VolumeSnapshotContentSource {
  std::optional<std::string> volume_handle = {};
  HeapOptional<std::string> snapshot_handle = {};

  bool operator==(const VolumeSnapshotContentSource&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeHandle", &VolumeSnapshotContentSource::volume_handle),
        Field("snapshotHandle", &VolumeSnapshotContentSource::snapshot_handle),
    };
  }
};

// The strings every content of a cluster repeats (policy, driver) are
// interned: a sidecar caches one content per snapshot.
struct VolumeSnapshotContentSpec {
  ObjectReference volume_snapshot_ref;
  InternedString deletion_policy;  // kDeletionPolicyDelete or kDeletionPolicyRetain
  InternedString driver;
  std::optional<std::string> volume_snapshot_class_name;
  VolumeSnapshotContentSource source;
  HeapOptional<std::string> source_volume_mode;  // rarely set

  bool operator==(const VolumeSnapshotContentSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeSnapshotRef", &VolumeSnapshotContentSpec::volume_snapshot_ref),
        Field("deletionPolicy", &VolumeSnapshotContentSpec::deletion_policy),
        Field("driver", &VolumeSnapshotContentSpec::driver),
        Field("volumeSnapshotClassName", &VolumeSnapshotContentSpec::volume_snapshot_class_name),
        Field("source", &VolumeSnapshotContentSpec::source),
        Field("sourceVolumeMode", &VolumeSnapshotContentSpec::source_volume_mode),
    };
  }
};

// status.error of contents and snapshots.
struct VolumeSnapshotError {
  std::optional<std::string> time = {};  // RFC 3339
  std::optional<std::string> message = {};

  bool operator==(const VolumeSnapshotError&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("time", &VolumeSnapshotError::time),
        Field("message", &VolumeSnapshotError::message),
    };
  }
};

struct VolumeSnapshotContentStatus {
  std::optional<std::string> snapshot_handle = {};
  std::optional<int64_t> creation_time = {};  // Unix nanoseconds
  std::optional<int64_t> restore_size = {};   // bytes
  std::optional<bool> ready_to_use = {};
  // Rarely set: a pointer each while empty.
  HeapOptional<VolumeSnapshotError> error = {};
  HeapOptional<std::string> volume_group_snapshot_handle = {};

  bool operator==(const VolumeSnapshotContentStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("snapshotHandle", &VolumeSnapshotContentStatus::snapshot_handle),
        Field("creationTime", &VolumeSnapshotContentStatus::creation_time),
        Field("restoreSize", &VolumeSnapshotContentStatus::restore_size),
        Field("readyToUse", &VolumeSnapshotContentStatus::ready_to_use),
        Field("error", &VolumeSnapshotContentStatus::error),
        Field("volumeGroupSnapshotHandle",
              &VolumeSnapshotContentStatus::volume_group_snapshot_handle),
    };
  }
};

struct VolumeSnapshotContent {
  static constexpr KindFacts kFacts{.api_version = "snapshot.storage.k8s.io/v1",
                                    .kind = "VolumeSnapshotContent",
                                    .plural = "volumesnapshotcontents",
                                    .scope = Scope::kCluster,
                                    .status_subresource = true};

  ObjectMeta metadata;
  VolumeSnapshotContentSpec spec;
  std::optional<VolumeSnapshotContentStatus> status;  // nil until the sidecar writes it

  bool operator==(const VolumeSnapshotContent&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeSnapshotContent::metadata),
        Field("spec", &VolumeSnapshotContent::spec),
        Field("status", &VolumeSnapshotContent::status),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeSnapshotContent);
KUBE_EXTERN_CODEC(ObjectList<VolumeSnapshotContent>);

}  // namespace kube
