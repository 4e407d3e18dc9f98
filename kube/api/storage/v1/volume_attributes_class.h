// VolumeAttributesClass (storage.k8s.io/v1, cluster-scoped, immutable but
// for metadata): a named set of a driver's mutable volume parameters. A
// claim naming one gets them as CreateVolume's mutable_parameters
// (docs/provisioner.md §3.3 step 11); the resizer applies a change of class
// with ControllerModifyVolume.
#pragma once

#include <string>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

struct VolumeAttributesClass {
  static constexpr KindFacts kFacts{.api_version = "storage.k8s.io/v1",
                                    .kind = "VolumeAttributesClass",
                                    .plural = "volumeattributesclasses",
                                    .scope = Scope::kCluster};

  ObjectMeta metadata;
  std::string driver_name;
  StringMap parameters;

  bool operator==(const VolumeAttributesClass&) const = default;

  static constexpr auto Fields() {
    using V = VolumeAttributesClass;
    return std::tuple{
        Field("metadata", &V::metadata),
        Field("driverName", &V::driver_name, Emit::kAlways),
        Field("parameters", &V::parameters),
    };
  }
};

KUBE_EXTERN_CODEC(VolumeAttributesClass);
KUBE_EXTERN_CODEC(ObjectList<VolumeAttributesClass>);

}  // namespace kube
