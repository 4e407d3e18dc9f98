#include "provisioner/node_deployment.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "csi/node_client.h"
#include "kube/api/core/v1/node_affinity.h"
#include "provisioner/names.h"
#include "provisioner/provisioned_volume.h"

namespace provisioner {
namespace {

// The label value limit of the managed-by label (a DNS-1035 label).
constexpr size_t kMaxLabelLength = 63;
// "-<8 hex digits>-" around the hash the shortened name carries.
constexpr size_t kHashPartLength = 10;

// FNV-1a, 32 bits, as 8 lowercase hex digits.
std::string Fnv32aHex(const std::string& text) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", hash);
  return hex;
}

}  // namespace

base::Result<NodeInfo> ReadNodeInfo(csi::Connection& connection, std::chrono::nanoseconds timeout) {
  csi::NodeClient client(connection);
  auto answer = client.NodeGetInfo(timeout);
  if (!answer.ok()) return answer.error();
  NodeInfo info{.node_id = answer->node_id(), .topology = std::nullopt};
  if (answer->has_accessible_topology()) {
    const auto& segments = answer->accessible_topology().segments();
    info.topology = TopologyTerm(segments.begin(), segments.end());
    std::sort(info.topology->begin(), info.topology->end());
  }
  return info;
}

NodeAssignment AssignmentOf(const kube::PersistentVolumeClaim& claim,
                            const std::string& node_name) {
  const std::string_view selected = SelectedNodeOf(claim);
  if (selected.empty()) return NodeAssignment::kNone;
  return selected == node_name ? NodeAssignment::kThisNode : NodeAssignment::kOtherNode;
}

bool VolumeIsOnNode(const kube::PersistentVolume& volume,
                    const std::optional<TopologyTerm>& node_topology) {
  // Without either side there is nothing to tell nodes apart by.
  if (!node_topology || volume.spec.node_affinity.empty()) return true;
  kube::Node node;
  for (const auto& [key, value] : *node_topology) node.metadata.labels[key] = value;
  return kube::MatchesNodeSelectorTerms(node, volume.spec.node_affinity);
}

FixedNodeTopology::FixedNodeTopology(const std::string& driver_name,
                                     const NodeDeploymentOptions& node_options) {
  kube::Node node;
  node.metadata.name = node_options.node_name;
  kube::CSINodeDriver driver{.name = driver_name,
                             .node_id = node_options.info.node_id,
                             .topology_keys = {},
                             .allocatable_count = std::nullopt};
  if (node_options.info.topology) {
    for (const auto& [key, value] : *node_options.info.topology) {
      node.metadata.labels[key] = value;
      driver.topology_keys.push_back(key);
    }
  }
  kube::CSINode csi_node;
  csi_node.metadata.name = node_options.node_name;
  csi_node.spec.drivers.push_back(std::move(driver));
  nodes.Upsert(std::make_shared<const kube::Node>(std::move(node)));
  csi_nodes.Upsert(std::make_shared<const kube::CSINode>(std::move(csi_node)));
}

std::string NodeCapacityManagedBy(const std::string& node_name) {
  const std::string base = "external-provisioner";
  const std::string name = base + "-" + node_name;
  if (name.size() <= kMaxLabelLength) return name;
  if (kHashPartLength + node_name.size() >= kMaxLabelLength) {
    // The node name alone leaves no room: the base and a hash of it all.
    std::string short_name = base + "-" + Fnv32aHex(name);
    return short_name.substr(0, kMaxLabelLength);
  }
  // Upstream hashes the base here, not the whole name.
  const size_t base_length = kMaxLabelLength - kHashPartLength - node_name.size();
  return base.substr(0, base_length) + "-" + Fnv32aHex(base) + "-" + node_name;
}

}  // namespace provisioner
