// Capacity segments (docs/provisioner.md §5): the topology segments storage
// capacity is published for, and the work items they make with the
// StorageClasses. Pure functions over cached objects:
//   - a node's segment is its CSINode's topology keys for the driver (sorted)
//     with the values of the same-named Node's labels; a node whose Node is
//     missing, or lacks one of the labels, has none; a driver without keys
//     gives the empty segment, which stands for every node;
//   - a StorageClass gets an item per segment when it is the driver's and
//     binds WaitForFirstConsumer (or Immediate ones too, when asked), and -
//     unlike upstream, which polls them all (§9.5) - only for segments its
//     allowedTopologies leaves room for;
//   - an item's key names the class and the segment's values, so two equal
//     segments are one item however they were found (upstream keyed items by
//     segment pointer and published duplicates, #1450).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/label_selector.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/csi_storage_capacity.h"
#include "kube/api/storage/v1/storage_class.h"
#include "provisioner/topology_terms.h"

namespace provisioner {

// One (StorageClass, segment) whose capacity is published.
struct CapacityItem {
  std::string class_name;
  TopologyTerm segment;

  bool operator==(const CapacityItem&) const = default;
};

// "<class>/<k1>=<v1>,<k2>=<v2>" (a class name has no '/', a label neither
// ',' nor '='); "<class>/" for the empty segment.
std::string KeyOf(const CapacityItem& item);
std::optional<CapacityItem> ItemOfKey(std::string_view key);
// The key of the item an object stands for; "" when its nodeTopology names
// no segment.
std::string ItemKeyOf(const kube::CSIStorageCapacity& object);

// The topology keys `driver` registered on `csi_node`; nullopt when the
// driver is not on it.
std::optional<std::vector<std::string>> DriverTopologyKeys(const kube::CSINode& csi_node,
                                                           const std::string& driver);

// The distinct segments of `driver`'s nodes, sorted.
std::vector<TopologyTerm> DriverSegments(
    const std::string& driver, const std::vector<std::shared_ptr<const kube::CSINode>>& csi_nodes,
    const std::function<std::shared_ptr<const kube::Node>(const std::string&)>& node_named);

// Whether capacity is published for `storage_class` at all.
bool TracksClass(const kube::StorageClass& storage_class, const std::string& driver,
                 bool immediate_binding);

// Whether a volume of `storage_class` may be in `segment`: some term of its
// allowedTopologies agrees with every value the segment fixes (none: yes).
bool ClassAllowsSegment(const kube::StorageClass& storage_class, const TopologyTerm& segment);

// The items of the tracked classes and the segments, sorted by key.
std::vector<CapacityItem> DesiredItems(
    const std::vector<std::shared_ptr<const kube::StorageClass>>& classes,
    const std::vector<TopologyTerm>& segments, const std::string& driver, bool immediate_binding);

// nodeTopology of a segment: matchLabels of its values (empty: all nodes).
kube::LabelSelector SelectorOf(const TopologyTerm& segment);
// The segment a nodeTopology selects; nullopt when it is unset or has
// matchExpressions, which no segment produces.
std::optional<TopologyTerm> SegmentOfSelector(const std::optional<kube::LabelSelector>& selector);

// The segment of a PV node-affinity term: each requirement `In` with one
// value, no matchFields; nullopt otherwise (the term names no segment).
std::optional<TopologyTerm> SegmentOfTerm(const kube::NodeSelectorTerm& term);

}  // namespace provisioner
