// CSINode (storage.k8s.io/v1): which CSI drivers run on a node and the node ID
// each one reported. The attacher reads it for the node ID of its driver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"

namespace kube {

struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::vector<std::string> topology_keys;
  std::optional<int32_t> allocatable_count;  // spec.drivers[].allocatable.count

  bool operator==(const CSINodeDriver&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("name", &CSINodeDriver::name, Emit::kAlways),
        Field("nodeID", &CSINodeDriver::node_id, Emit::kAlways),
        Field("topologyKeys", &CSINodeDriver::topology_keys),
        Field("allocatable.count", &CSINodeDriver::allocatable_count),
    };
  }
};

struct CSINodeSpec {
  std::vector<CSINodeDriver> drivers;

  // The entry of `driver_name`, or nullptr when the node does not run it.
  const CSINodeDriver* FindDriver(std::string_view driver_name) const {
    for (const auto& driver : drivers) {
      if (driver.name == driver_name) return &driver;
    }
    return nullptr;
  }

  bool operator==(const CSINodeSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("drivers", &CSINodeSpec::drivers, Emit::kAlways),
    };
  }
};

struct CSINode {
  static constexpr KindFacts kFacts{.api_version = "storage.k8s.io/v1",
                                    .kind = "CSINode",
                                    .plural = "csinodes",
                                    .scope = Scope::kCluster};

  ObjectMeta metadata;
  CSINodeSpec spec;

  bool operator==(const CSINode&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &CSINode::metadata),
        Field("spec", &CSINode::spec),
    };
  }
};

KUBE_EXTERN_CODEC(CSINode);
KUBE_EXTERN_CODEC(ObjectList<CSINode>);

}  // namespace kube
