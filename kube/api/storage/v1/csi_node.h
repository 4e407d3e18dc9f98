// CSINode (storage.k8s.io/v1): which CSI drivers run on a node and the node ID
// each one reported. The attacher reads it for the node ID of its driver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/object_meta.h"

namespace kube {

struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::vector<std::string> topology_keys;
  std::optional<int32_t> allocatable_count;  // spec.drivers[].allocatable.count

  bool operator==(const CSINodeDriver&) const = default;
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
};

struct CSINode {
  static constexpr std::string_view kKind = "CSINode";
  static constexpr std::string_view kApiVersion = "storage.k8s.io/v1";

  ObjectMeta metadata;
  CSINodeSpec spec;

  bool operator==(const CSINode&) const = default;
};

}  // namespace kube
