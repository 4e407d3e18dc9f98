// Node deployment (docs/provisioner.md §3.12, --node-deployment): one
// provisioner per node, next to a driver that can only make volumes on its
// own node. What the node is comes once from the driver's NodeGetInfo (its
// ID and topology) and never changes; the pure decisions here are made from
// it:
//   - whose a claim is: the node its volume.kubernetes.io/selected-node
//     names - this one, another one, or none yet;
//   - whether a PV is this node's to delete: its node affinity admits a node
//     labelled with this node's topology (no topology, or no affinity: yes);
//   - the Node and CSINode the topology code sees (§3.6): two fixed
//     objects built from NodeGetInfo instead of watched ones, as upstream
//     does, so a node-local provisioner never watches every Node;
//   - the managed-by label of the node's CSIStorageCapacity objects (§5).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "base/result.h"
#include "csi/connection.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/runtime/store.h"
#include "provisioner/topology_terms.h"

namespace provisioner {

// What NodeGetInfo said about the node.
struct NodeInfo {
  std::string node_id;
  // accessible_topology's segments, sorted; nullopt when it had none.
  std::optional<TopologyTerm> topology;
};

struct NodeDeploymentOptions {
  std::string node_name;  // $NODE_NAME
  NodeInfo info;
  bool immediate_binding = true;  // --node-deployment-immediate-binding
  std::chrono::nanoseconds base_delay{std::chrono::seconds(20)};  // --node-deployment-base-delay
  std::chrono::nanoseconds max_delay{std::chrono::seconds(60)};   // --node-deployment-max-delay
};

// §2.4 step 7: NodeGetInfo within `timeout`.
base::Result<NodeInfo> ReadNodeInfo(csi::Connection& connection, std::chrono::nanoseconds timeout);

enum class NodeAssignment { kThisNode, kOtherNode, kNone };

// Whose the claim is by its volume.kubernetes.io/selected-node (only that
// key: upstream ignores the alpha one here).
NodeAssignment AssignmentOf(const kube::PersistentVolumeClaim& claim, const std::string& node_name);

// §4.2 step 1: whether this node may delete the PV's volume.
bool VolumeIsOnNode(const kube::PersistentVolume& volume,
                    const std::optional<TopologyTerm>& node_topology);

// The fixed Node (labels: the topology) and CSINode (the driver with the
// node ID and the topology's keys) of this node, in stores of their own.
struct FixedNodeTopology {
  FixedNodeTopology(const std::string& driver_name, const NodeDeploymentOptions& node);

  kube::Store<kube::Node> nodes;
  kube::Store<kube::CSINode> csi_nodes;
};

// §5: "external-provisioner-<node>", shortened to 63 characters with a hash
// of the whole name when it is longer.
std::string NodeCapacityManagedBy(const std::string& node_name);

}  // namespace provisioner
