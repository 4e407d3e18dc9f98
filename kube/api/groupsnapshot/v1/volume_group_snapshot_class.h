// VolumeGroupSnapshotClass (groupsnapshot.storage.k8s.io/v1, cluster-scoped,
// every field immutable): the driver, parameters and deletion policy of a
// group snapshot, as VolumeSnapshotClass is for one (docs/snapshots.md §2).
#pragma once

#include <string>
#include <string_view>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

// The annotation marking a driver's default group class; the value must be exactly "true".
inline constexpr std::string_view kIsDefaultGroupSnapshotClassAnnotation =
    "groupsnapshot.storage.kubernetes.io/is-default-class";

struct VolumeGroupSnapshotClass {
  static constexpr KindFacts kFacts{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                    .kind = "VolumeGroupSnapshotClass",
                                    .plural = "volumegroupsnapshotclasses",
                                    .scope = Scope::kCluster};

  ObjectMeta metadata;
  std::string driver;
  StringMap parameters;
  std::string deletion_policy;  // kDeletionPolicyDelete or kDeletionPolicyRetain

  bool operator==(const VolumeGroupSnapshotClass&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeGroupSnapshotClass::metadata),
        Field("driver", &VolumeGroupSnapshotClass::driver),
        Field("parameters", &VolumeGroupSnapshotClass::parameters),
        Field("deletionPolicy", &VolumeGroupSnapshotClass::deletion_policy),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeGroupSnapshotClass);
KUBE_EXTERN_CODEC(ObjectList<VolumeGroupSnapshotClass>);

}  // namespace kube
