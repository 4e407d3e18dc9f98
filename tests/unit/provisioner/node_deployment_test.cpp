// docs/provisioner.md §3.12 (node deployment) and §5 (its capacity label):
// the pure decisions of a node-deployed provisioner - whose a claim is,
// whether a PV is this node's to delete, the fixed Node and CSINode built
// from NodeGetInfo - and ClaimTaker's delay schedule.
#include "provisioner/node_deployment.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "provisioner/claim_taker.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kNodeZoneKey = "topology.example.com/zone";

kube::PersistentVolumeClaim ClaimSelecting(const std::string& node) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.name = "data";
  if (!node.empty()) claim.metadata.annotations[kSelectedNodeAnnotation] = node;
  return claim;
}

kube::PersistentVolume VolumeInZone(const std::string& zone) {
  kube::PersistentVolume volume;
  volume.metadata.name = "pv-" + zone;
  if (!zone.empty()) {
    volume.spec.node_affinity = {kube::NodeSelectorTerm{
        .match_expressions = {
            {.key = std::string(kNodeZoneKey), .operator_ = "In", .values = {zone}}}}};
  }
  return volume;
}

TopologyTerm ZoneTerm(const std::string& zone) { return {{std::string(kNodeZoneKey), zone}}; }

TEST(NodeAssignmentTest, SelectedNodeSaysWhoseTheClaimIs) {
  EXPECT_EQ(AssignmentOf(ClaimSelecting("node-a"), "node-a"), NodeAssignment::kThisNode);
  EXPECT_EQ(AssignmentOf(ClaimSelecting("node-b"), "node-a"), NodeAssignment::kOtherNode);
  EXPECT_EQ(AssignmentOf(ClaimSelecting(""), "node-a"), NodeAssignment::kNone);
  // Only volume.kubernetes.io/selected-node counts, as upstream's checkNode.
  kube::PersistentVolumeClaim alpha = ClaimSelecting("");
  alpha.metadata.annotations["volume.alpha.kubernetes.io/selected-node"] = "node-b";
  EXPECT_EQ(AssignmentOf(alpha, "node-a"), NodeAssignment::kNone);
}

// §4.2 step 1: a PV is this node's when its affinity admits the node's
// topology; without a topology or an affinity every node may delete it.
TEST(VolumeIsOnNodeTest, AffinityMustAdmitTheNodesTopology) {
  EXPECT_TRUE(VolumeIsOnNode(VolumeInZone("z1"), ZoneTerm("z1")));
  EXPECT_FALSE(VolumeIsOnNode(VolumeInZone("z2"), ZoneTerm("z1")));
  EXPECT_TRUE(VolumeIsOnNode(VolumeInZone(""), ZoneTerm("z1")));
  EXPECT_TRUE(VolumeIsOnNode(VolumeInZone("z2"), std::nullopt));
}

// §2.4 step 7: the Node is labelled with the topology, the CSINode
// registers the driver with the node ID and the topology's keys.
TEST(FixedNodeTopologyTest, NodeAndCsiNodeComeFromNodeGetInfo) {
  NodeDeploymentOptions options{.node_name = "node-a",
                                .info = {.node_id = "id-a", .topology = ZoneTerm("z1")}};
  FixedNodeTopology fixed("fast.csi.example.com", options);
  auto node = fixed.nodes.GetByKey("node-a");
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->metadata.labels.find(kNodeZoneKey)->second, "z1");
  auto csi_node = fixed.csi_nodes.GetByKey("node-a");
  ASSERT_NE(csi_node, nullptr);
  const kube::CSINodeDriver* driver = csi_node->spec.FindDriver("fast.csi.example.com");
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->node_id, "id-a");
  EXPECT_EQ(driver->topology_keys, std::vector<std::string>{std::string(kNodeZoneKey)});
  EXPECT_EQ(fixed.nodes.Size(), 1u);
  EXPECT_EQ(fixed.csi_nodes.Size(), 1u);
}

// The schedule of §3.12: base·2^attempt up to max, less jitter·base.
TEST(OwnershipDelayTest, DoublesFromBaseUpToMaxLessTheJitter) {
  EXPECT_EQ(OwnershipDelay(1s, 4s, 0, 0.0), 1s);
  EXPECT_EQ(OwnershipDelay(1s, 4s, 1, 0.0), 2s);
  EXPECT_EQ(OwnershipDelay(1s, 4s, 2, 0.0), 4s);
  EXPECT_EQ(OwnershipDelay(1s, 4s, 3, 0.0), 4s);
  EXPECT_EQ(OwnershipDelay(1s, 4s, 100, 0.0), 4s);
  EXPECT_EQ(OwnershipDelay(1s, 4s, 0, 0.25), 750ms);
  EXPECT_EQ(OwnershipDelay(1s, 4s, 2, 0.5), 3500ms);
  // The jitter is at most one base: never below zero.
  EXPECT_EQ(OwnershipDelay(1s, 500ms, 0, 0.9), 0ns);
  // No base delay: no wait at all, however often.
  EXPECT_EQ(OwnershipDelay(0s, 4s, 3, 0.5), 0ns);
}

TEST(OwnershipDelayTest, PollsAHundredthOfTheBaseButNotFasterThanTenMilliseconds) {
  EXPECT_EQ(OwnershipPollInterval(20s), 200ms);
  EXPECT_EQ(OwnershipPollInterval(100ms), 10ms);
  EXPECT_EQ(OwnershipPollInterval(1ms), 10ms);
}

// §5: upstream's getNameWithMaxLength for the label value (63 characters).
TEST(NodeCapacityManagedByTest, NodeNameIsAppendedAndShortenedWithAHash) {
  EXPECT_EQ(NodeCapacityManagedBy("node-a"), "external-provisioner-node-a");
  const std::string fifty(50, 'n');
  // Room for 3 characters of the base, then the hash of the base.
  EXPECT_EQ(NodeCapacityManagedBy(fifty), "ext-53f40b57-" + fifty);
  // The node name alone is too long: the base and a hash of the whole name.
  EXPECT_EQ(NodeCapacityManagedBy(std::string(60, 'm')), "external-provisioner-9aba7cd2");
}

}  // namespace
}  // namespace provisioner
