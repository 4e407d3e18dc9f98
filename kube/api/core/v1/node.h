// Node (core/v1, cluster-scoped), reduced to what matching a
// PersistentVolume's nodeAffinity reads: its name and labels
// (node_affinity.h). The snapshot-controller watches Nodes only with
// distributed snapshotting (docs/snapshots.md §4.3).
#pragma once

#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"

namespace kube {

struct Node {
  static constexpr KindFacts kFacts{.api_version = "v1",
                                    .kind = "Node",
                                    .plural = "nodes",
                                    .scope = Scope::kCluster,
                                    .status_subresource = true};

  ObjectMeta metadata;

  bool operator==(const Node&) const = default;

  static constexpr auto Fields() { return std::tuple{Field("metadata", &Node::metadata)}; }
};

KUBE_EXTERN_CODEC(Node);
KUBE_EXTERN_CODEC(ObjectList<Node>);

}  // namespace kube
