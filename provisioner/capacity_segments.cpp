#include "provisioner/capacity_segments.h"

#include <algorithm>

namespace provisioner {
namespace {

// Whether `term` fixes no key of `segment` to another value.
bool Agrees(const TopologyTerm& term, const TopologyTerm& segment) {
  for (const auto& [key, value] : term) {
    auto it = std::find_if(segment.begin(), segment.end(),
                           [&key](const TopologySegment& entry) { return entry.first == key; });
    if (it != segment.end() && it->second != value) return false;
  }
  return true;
}

}  // namespace

std::optional<std::vector<std::string>> DriverTopologyKeys(const kube::CSINode& csi_node,
                                                           const std::string& driver) {
  for (const kube::CSINodeDriver& entry : csi_node.spec.drivers) {
    if (entry.name == driver) return entry.topology_keys;
  }
  return std::nullopt;
}

std::string KeyOf(const CapacityItem& item) {
  std::string key = item.class_name + "/";
  for (size_t i = 0; i < item.segment.size(); ++i) {
    if (i > 0) key += ',';
    key += item.segment[i].first + "=" + item.segment[i].second;
  }
  return key;
}

std::optional<CapacityItem> ItemOfKey(std::string_view key) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  CapacityItem item{.class_name = std::string(key.substr(0, slash)), .segment = {}};
  std::string_view rest = key.substr(slash + 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    const size_t equals = entry.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    item.segment.emplace_back(std::string(entry.substr(0, equals)),
                              std::string(entry.substr(equals + 1)));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return item;
}

std::string ItemKeyOf(const kube::CSIStorageCapacity& object) {
  std::optional<TopologyTerm> segment = SegmentOfSelector(object.node_topology);
  if (!segment) return "";
  return KeyOf(CapacityItem{.class_name = object.storage_class_name, .segment = *segment});
}

std::vector<TopologyTerm> DriverSegments(
    const std::string& driver, const std::vector<std::shared_ptr<const kube::CSINode>>& csi_nodes,
    const std::function<std::shared_ptr<const kube::Node>(const std::string&)>& node_named) {
  std::vector<TopologyTerm> segments;
  for (const auto& csi_node : csi_nodes) {
    std::optional<std::vector<std::string>> keys = DriverTopologyKeys(*csi_node, driver);
    if (!keys) continue;
    std::shared_ptr<const kube::Node> node = node_named(csi_node->metadata.name);
    if (!node) continue;
    std::optional<TopologyTerm> segment = TermOfLabels(node->metadata.labels, *keys);
    if (segment) segments.push_back(std::move(*segment));
  }
  std::sort(segments.begin(), segments.end());
  segments.erase(std::unique(segments.begin(), segments.end()), segments.end());
  return segments;
}

bool TracksClass(const kube::StorageClass& storage_class, const std::string& driver,
                 bool immediate_binding) {
  if (storage_class.provisioner != driver) return false;
  // As upstream: only an explicit Immediate is left out (the API server
  // always sets the mode).
  const auto& mode = storage_class.volume_binding_mode;
  return immediate_binding || !mode || *mode != kube::kBindingImmediate;
}

bool ClassAllowsSegment(const kube::StorageClass& storage_class, const TopologyTerm& segment) {
  if (storage_class.allowed_topologies.empty()) return true;
  const std::vector<TopologyTerm> terms = Flatten(storage_class.allowed_topologies);
  return std::any_of(terms.begin(), terms.end(),
                     [&segment](const TopologyTerm& term) { return Agrees(term, segment); });
}

std::vector<CapacityItem> DesiredItems(
    const std::vector<std::shared_ptr<const kube::StorageClass>>& classes,
    const std::vector<TopologyTerm>& segments, const std::string& driver, bool immediate_binding) {
  std::vector<CapacityItem> items;
  for (const auto& storage_class : classes) {
    if (!TracksClass(*storage_class, driver, immediate_binding)) continue;
    for (const TopologyTerm& segment : segments) {
      if (!ClassAllowsSegment(*storage_class, segment)) continue;
      items.push_back({.class_name = storage_class->metadata.name, .segment = segment});
    }
  }
  std::sort(items.begin(), items.end(),
            [](const CapacityItem& a, const CapacityItem& b) { return KeyOf(a) < KeyOf(b); });
  return items;
}

kube::LabelSelector SelectorOf(const TopologyTerm& segment) {
  kube::LabelSelector selector;
  for (const auto& [key, value] : segment) selector.match_labels[key] = value;
  return selector;
}

std::optional<TopologyTerm> SegmentOfSelector(const std::optional<kube::LabelSelector>& selector) {
  if (!selector || !selector->match_expressions.empty()) return std::nullopt;
  TopologyTerm segment;
  for (const auto& [key, value] : selector->match_labels) segment.emplace_back(key, value);
  std::sort(segment.begin(), segment.end());
  return segment;
}

std::optional<TopologyTerm> SegmentOfTerm(const kube::NodeSelectorTerm& term) {
  if (!term.match_fields.empty()) return std::nullopt;
  TopologyTerm segment;
  for (const kube::NodeSelectorRequirement& requirement : term.match_expressions) {
    if (requirement.operator_ != "In" || requirement.values.size() != 1) return std::nullopt;
    segment.emplace_back(requirement.key, requirement.values.front());
  }
  std::sort(segment.begin(), segment.end());
  return segment;
}

}  // namespace provisioner
