// CSIStorageCapacity (storage.k8s.io/v1, namespaced): how much space a
// driver reports for one StorageClass in one topology segment. The
// provisioner publishes these (docs/provisioner.md §5); kube-scheduler reads
// them for WaitForFirstConsumer claims of a CSIDriver with storageCapacity.
// The segment is `nodeTopology`, a label selector of Nodes (unset: none;
// empty: every node). Quantities are text as the API machinery writes them.
#pragma once

#include <optional>
#include <string>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/label_selector.h"
#include "kube/api/object_meta.h"

namespace kube {

struct CSIStorageCapacity {
  static constexpr KindFacts kFacts{.api_version = "storage.k8s.io/v1",
                                    .kind = "CSIStorageCapacity",
                                    .plural = "csistoragecapacities",
                                    .scope = Scope::kNamespaced};

  ObjectMeta metadata;
  std::string storage_class_name;
  std::optional<LabelSelector> node_topology;
  std::optional<std::string> capacity;             // a resource.Quantity
  std::optional<std::string> maximum_volume_size;  // a resource.Quantity

  bool operator==(const CSIStorageCapacity&) const = default;

  static constexpr auto Fields() {
    using C = CSIStorageCapacity;
    return std::tuple{
        Field("metadata", &C::metadata),
        Field("storageClassName", &C::storage_class_name, Emit::kAlways),
        Field("nodeTopology", &C::node_topology),
        Field("capacity", &C::capacity),
        Field("maximumVolumeSize", &C::maximum_volume_size),
    };
  }
};

KUBE_EXTERN_CODEC(CSIStorageCapacity);
KUBE_EXTERN_CODEC(ObjectList<CSIStorageCapacity>);

}  // namespace kube
