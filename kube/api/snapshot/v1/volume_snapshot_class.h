// VolumeSnapshotClass (snapshot.storage.k8s.io/v1, cluster-scoped, no status):
// the driver, deletion policy and CSI parameters of the snapshots made with
// it; the fields sit at the top level, there is no spec (docs/snapshots.md §2).
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

// The annotation marking a driver's default class; the value must be exactly "true".
inline constexpr std::string_view kIsDefaultSnapshotClassAnnotation =
    "snapshot.storage.kubernetes.io/is-default-class";

struct VolumeSnapshotClass {
  static constexpr KindFacts kFacts{.api_version = "snapshot.storage.k8s.io/v1",
                                    .kind = "VolumeSnapshotClass",
                                    .plural = "volumesnapshotclasses",
                                    .scope = Scope::kCluster};

  ObjectMeta metadata;
  std::string driver;
  StringMap parameters;
  std::string deletion_policy;

  bool operator==(const VolumeSnapshotClass&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeSnapshotClass::metadata),
        Field("driver", &VolumeSnapshotClass::driver),
        Field("parameters", &VolumeSnapshotClass::parameters),
        Field("deletionPolicy", &VolumeSnapshotClass::deletion_policy),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeSnapshotClass);
KUBE_EXTERN_CODEC(ObjectList<VolumeSnapshotClass>);

}  // namespace kube
