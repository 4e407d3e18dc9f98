// docs/provisioner.md §5 and §9.5: the segments capacity is published for,
// the classes and (class, segment) items that get an object, the item keys
// that make equal segments one item, and the segment a PV's node affinity
// or an object's nodeTopology names.
#include "provisioner/capacity_segments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace provisioner {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::shared_ptr<const kube::CSINode> CsiNode(const std::string& name, const std::string& driver,
                                             std::vector<std::string> keys) {
  auto node = std::make_shared<kube::CSINode>();
  node->metadata.name = name;
  node->spec.drivers.push_back({.name = driver,
                                .node_id = name,
                                .topology_keys = std::move(keys),
                                .allocatable_count = std::nullopt});
  return node;
}

std::shared_ptr<const kube::StorageClass> Class(
    const std::string& name, const std::string& driver, std::optional<std::string> mode,
    std::vector<kube::TopologySelectorTerm> allowed = {}) {
  auto storage_class = std::make_shared<kube::StorageClass>();
  storage_class->metadata.name = name;
  storage_class->provisioner = driver;
  storage_class->volume_binding_mode = std::move(mode);
  storage_class->allowed_topologies = std::move(allowed);
  return storage_class;
}

struct NodeTable {
  std::map<std::string, std::shared_ptr<const kube::Node>> nodes;
  void Add(const std::string& name, kube::StringMap labels) {
    auto node = std::make_shared<kube::Node>();
    node->metadata.name = name;
    node->metadata.labels = std::move(labels);
    nodes[name] = node;
  }
  std::shared_ptr<const kube::Node> operator()(const std::string& name) const {
    auto it = nodes.find(name);
    return it == nodes.end() ? nullptr : it->second;
  }
};

TEST(CapacitySegmentsTest, DriverSegmentsAreTheDistinctTermsOfTheDriversNodes) {
  NodeTable nodes;
  nodes.Add("n1", {{"zone", "a"}, {"rack", "1"}});
  nodes.Add("n2", {{"zone", "a"}, {"rack", "1"}});  // the same segment again: one
  nodes.Add("n3", {{"zone", "b"}, {"rack", "2"}});
  nodes.Add("n4", {{"zone", "c"}});                 // lacks the rack label: none
  nodes.Add("n6", {{"zone", "d"}, {"rack", "4"}});  // another driver's
  std::vector<TopologyTerm> segments = DriverSegments(
      "d.csi",
      {CsiNode("n1", "d.csi", {"zone", "rack"}), CsiNode("n2", "d.csi", {"rack", "zone"}),
       CsiNode("n3", "d.csi", {"zone", "rack"}), CsiNode("n4", "d.csi", {"zone", "rack"}),
       CsiNode("n5", "d.csi", {"zone"}),  // no Node object: none
       CsiNode("n6", "other.csi", {"zone", "rack"})},
      nodes);
  EXPECT_THAT(segments, ElementsAre(TopologyTerm{{"rack", "1"}, {"zone", "a"}},
                                    TopologyTerm{{"rack", "2"}, {"zone", "b"}}));
}

TEST(CapacitySegmentsTest, DriverWithoutTopologyKeysHasTheEmptySegment) {
  NodeTable nodes;
  nodes.Add("n1", {});
  EXPECT_THAT(DriverSegments("d.csi", {CsiNode("n1", "d.csi", {})}, nodes),
              ElementsAre(TopologyTerm{}));
}

TEST(CapacitySegmentsTest, OnlyTheDriversDelayedBindingClassesAreTrackedUnlessImmediateIsAsked) {
  struct Case {
    std::string provisioner;
    std::optional<std::string> mode;
    bool immediate_binding;
    bool tracked;
  };
  for (const Case& c : std::vector<Case>{{"d.csi", "WaitForFirstConsumer", false, true},
                                         {"d.csi", "Immediate", false, false},
                                         {"d.csi", "Immediate", true, true},
                                         {"d.csi", std::nullopt, false, true},
                                         {"other.csi", "WaitForFirstConsumer", true, false}}) {
    EXPECT_EQ(TracksClass(*Class("c", c.provisioner, c.mode), "d.csi", c.immediate_binding),
              c.tracked)
        << c.provisioner << " " << c.mode.value_or("<unset>") << " " << c.immediate_binding;
  }
}

TEST(CapacitySegmentsTest, AllowedTopologiesExcludesSegmentsWithAnotherValueOfItsKeys) {
  auto zones_a_b = Class("c", "d.csi", "WaitForFirstConsumer",
                         {{.match_label_expressions = {{"zone", {"a", "b"}}}}});
  EXPECT_TRUE(ClassAllowsSegment(*zones_a_b, {{"zone", "a"}}));
  EXPECT_TRUE(ClassAllowsSegment(*zones_a_b, {{"rack", "1"}, {"zone", "b"}}));
  EXPECT_FALSE(ClassAllowsSegment(*zones_a_b, {{"zone", "c"}}));
  // A segment that does not fix the key may hold nodes the class allows.
  EXPECT_TRUE(ClassAllowsSegment(*zones_a_b, {{"rack", "1"}}));
  EXPECT_TRUE(ClassAllowsSegment(*zones_a_b, {}));
  EXPECT_TRUE(ClassAllowsSegment(*Class("c", "d.csi", "WaitForFirstConsumer"), {{"zone", "z"}}));
}

TEST(CapacitySegmentsTest, DesiredItemsPairTrackedClassesWithTheSegmentsTheyAllow) {
  std::vector<CapacityItem> items = DesiredItems(
      {Class("fast", "d.csi", "WaitForFirstConsumer",
             {{.match_label_expressions = {{"zone", {"a"}}}}}),
       Class("slow", "d.csi", "WaitForFirstConsumer"), Class("now", "d.csi", "Immediate"),
       Class("theirs", "other.csi", "WaitForFirstConsumer")},
      {{{"zone", "a"}}, {{"zone", "b"}}}, "d.csi", /*immediate_binding=*/false);
  std::vector<std::string> keys;
  for (const CapacityItem& item : items) keys.push_back(KeyOf(item));
  EXPECT_THAT(keys, ElementsAre("fast/zone=a", "slow/zone=a", "slow/zone=b"));
}

TEST(CapacitySegmentsTest, ItemKeysReadBackAndEqualSegmentsShareOne) {
  CapacityItem item{.class_name = "gold",
                    .segment = {{"topology.kubernetes.io/region", "eu"},
                                {"topology.kubernetes.io/zone", "eu-1"}}};
  EXPECT_EQ(KeyOf(item), "gold/topology.kubernetes.io/region=eu,topology.kubernetes.io/zone=eu-1");
  EXPECT_EQ(ItemOfKey(KeyOf(item)), item);
  CapacityItem everywhere{.class_name = "gold", .segment = {}};
  EXPECT_EQ(KeyOf(everywhere), "gold/");
  EXPECT_EQ(ItemOfKey("gold/"), everywhere);
  EXPECT_EQ(ItemOfKey("no-slash"), std::nullopt);
  EXPECT_EQ(ItemOfKey("gold/zone"), std::nullopt);
}

TEST(CapacitySegmentsTest, NodeTopologyAndSegmentConvertBothWays) {
  TopologyTerm segment{{"rack", "1"}, {"zone", "a"}};
  EXPECT_EQ(SegmentOfSelector(SelectorOf(segment)), segment);
  EXPECT_EQ(SegmentOfSelector(SelectorOf({})), TopologyTerm{});
  EXPECT_EQ(SegmentOfSelector(std::nullopt), std::nullopt);
  kube::LabelSelector with_expression;
  with_expression.match_expressions.push_back({.key = "zone", .operator_ = "Exists"});
  EXPECT_EQ(SegmentOfSelector(with_expression), std::nullopt);
}

TEST(CapacitySegmentsTest, SegmentOfANodeAffinityTermNeedsOneValueInEachRequirement) {
  kube::NodeSelectorTerm term{.match_expressions = {{"zone", "In", {"a"}}, {"rack", "In", {"1"}}}};
  EXPECT_EQ(SegmentOfTerm(term), (TopologyTerm{{"rack", "1"}, {"zone", "a"}}));
  EXPECT_EQ(SegmentOfTerm({.match_expressions = {{"zone", "In", {"a", "b"}}}}), std::nullopt);
  EXPECT_EQ(SegmentOfTerm({.match_expressions = {{"zone", "NotIn", {"a"}}}}), std::nullopt);
  EXPECT_EQ(
      SegmentOfTerm({.match_expressions = {}, .match_fields = {{"metadata.name", "In", {"n"}}}}),
      std::nullopt);
}

}  // namespace
}  // namespace provisioner
