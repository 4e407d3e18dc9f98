// ManagedByNode (docs/snapshots.md §4.3 createSnapshotContent step 3): the
// node a distributed snapshot's content is labelled with.
#include "snapshot_controller/managed_by_node.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/unit/snapshot_controller/objects.h"

namespace snapshot_controller::testing {
namespace {

constexpr const char* kHostname = "kubernetes.io/hostname";

kube::PersistentVolume LocalVolumeOn(std::vector<std::string> hosts) {
  return Volume([&](kube::PersistentVolume& v) {
    v.spec.node_affinity = {kube::NodeSelectorTerm{{{kHostname, "In", std::move(hosts)}}}};
  });
}

class ManagedByNodeTest : public ::testing::Test {
 protected:
  void AddNode(std::string name, kube::StringMap labels) {
    nodes_.Upsert(std::make_shared<const kube::Node>(NodeWithLabels(name, std::move(labels))));
  }
  kube::Store<kube::Node> nodes_;
};

TEST_F(ManagedByNodeTest, TheNodeMatchingTheVolumesAffinity) {
  AddNode("node-a", {{kHostname, "node-a"}});
  AddNode("node-b", {{kHostname, "node-b"}});
  EXPECT_EQ(ManagedByNode(LocalVolumeOn({"node-b"}), nodes_), "node-b");
}

TEST_F(ManagedByNodeTest, TheFirstByNameWhenSeveralMatch) {
  AddNode("node-c", {{"zone", "z1"}});
  AddNode("node-a", {{"zone", "z1"}});
  AddNode("node-b", {{"zone", "z2"}});
  auto volume = Volume([](kube::PersistentVolume& v) {
    v.spec.node_affinity = {kube::NodeSelectorTerm{{{"zone", "In", {"z1"}}}}};
  });
  EXPECT_EQ(ManagedByNode(volume, nodes_), "node-a");
}

TEST_F(ManagedByNodeTest, NoneWithoutAffinityOrWithoutAMatchingNode) {
  AddNode("node-a", {{kHostname, "node-a"}});
  EXPECT_EQ(ManagedByNode(Volume(), nodes_), "");
  EXPECT_EQ(ManagedByNode(LocalVolumeOn({"node-z"}), nodes_), "");
  kube::Store<kube::Node> no_nodes;
  EXPECT_EQ(ManagedByNode(LocalVolumeOn({"node-a"}), no_nodes), "");
}

}  // namespace
}  // namespace snapshot_controller::testing
