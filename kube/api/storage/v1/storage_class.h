// StorageClass (storage.k8s.io/v1, cluster-scoped, immutable but for
// metadata): what a provisioner reads to make a claim's volume - which driver
// provisions it, the parameters passed to the driver, the reclaim policy and
// mount options of the PV, when binding happens, and where volumes may be
// (allowedTopologies). Unset fields decode to unset; the API server defaults
// reclaimPolicy to Delete and volumeBindingMode to Immediate on create.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

// One key of a topology term and the values it may take.
struct TopologySelectorLabelRequirement {
  std::string key;
  std::vector<std::string> values;

  bool operator==(const TopologySelectorLabelRequirement&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("key", &TopologySelectorLabelRequirement::key, Emit::kAlways),
        Field("values", &TopologySelectorLabelRequirement::values, Emit::kAlways),
    };
  }
};

// A term of allowedTopologies: every requirement must hold (AND); the terms
// of the list are alternatives (OR).
struct TopologySelectorTerm {
  std::vector<TopologySelectorLabelRequirement> match_label_expressions;

  bool operator==(const TopologySelectorTerm&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("matchLabelExpressions", &TopologySelectorTerm::match_label_expressions),
    };
  }
};

inline constexpr std::string_view kBindingImmediate = "Immediate";
inline constexpr std::string_view kBindingWaitForFirstConsumer = "WaitForFirstConsumer";

struct StorageClass {
  static constexpr KindFacts kFacts{.api_version = "storage.k8s.io/v1",
                                    .kind = "StorageClass",
                                    .plural = "storageclasses",
                                    .scope = Scope::kCluster};

  ObjectMeta metadata;
  std::string provisioner;
  StringMap parameters;
  std::optional<std::string> reclaim_policy;  // Delete, Retain
  std::vector<std::string> mount_options;
  std::optional<bool> allow_volume_expansion;
  std::optional<std::string> volume_binding_mode;  // Immediate, WaitForFirstConsumer
  std::vector<TopologySelectorTerm> allowed_topologies;

  // WaitForFirstConsumer: provisioning waits for the scheduler's node.
  bool WaitsForFirstConsumer() const {
    return volume_binding_mode && *volume_binding_mode == kBindingWaitForFirstConsumer;
  }

  bool operator==(const StorageClass&) const = default;

  static constexpr auto Fields() {
    using S = StorageClass;
    return std::tuple{
        Field("metadata", &S::metadata),
        Field("provisioner", &S::provisioner, Emit::kAlways),
        Field("parameters", &S::parameters),
        Field("reclaimPolicy", &S::reclaim_policy),
        Field("mountOptions", &S::mount_options),
        Field("allowVolumeExpansion", &S::allow_volume_expansion),
        Field("volumeBindingMode", &S::volume_binding_mode),
        Field("allowedTopologies", &S::allowed_topologies),
    };
  }
};

KUBE_EXTERN_CODEC(StorageClass);
KUBE_EXTERN_CODEC(ObjectList<StorageClass>);

}  // namespace kube
