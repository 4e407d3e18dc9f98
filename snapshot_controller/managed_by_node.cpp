#include "snapshot_controller/managed_by_node.h"

#include "kube/api/core/v1/node_affinity.h"

namespace snapshot_controller {

std::string ManagedByNode(const kube::PersistentVolume& volume,
                          const kube::Store<kube::Node>& nodes) {
  const std::string* first = nullptr;
  // Upstream takes the first match in its lister's (random) order; the
  // smallest name is one of those answers and the same on every sync.
  const auto all = nodes.List();
  for (const auto& node : all) {
    if (first && node->metadata.name >= *first) continue;
    if (kube::MatchesNodeSelectorTerms(*node, volume.spec.node_affinity)) {
      first = &node->metadata.name;
    }
  }
  return first ? *first : "";
}

}  // namespace snapshot_controller
