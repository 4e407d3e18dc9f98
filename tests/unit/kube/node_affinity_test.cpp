// Node codec and MatchesNodeSelectorTerms: the scheduler's rules for a
// PersistentVolume's required nodeAffinity.
#include "kube/api/core/v1/node_affinity.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/api/codec.h"
#include "kube/api/resource.h"

namespace kube {
namespace {

Node NodeWith(std::string name, StringMap labels) {
  Node node;
  node.metadata.name = std::move(name);
  node.metadata.labels = std::move(labels);
  return node;
}

NodeSelectorTerm Expressions(std::vector<NodeSelectorRequirement> requirements) {
  return NodeSelectorTerm{.match_expressions = std::move(requirements)};
}

const Node kZoneA = NodeWith("node-a", {{"topology.kubernetes.io/zone", "a"}, {"cpus", "8"}});

TEST(NodeCodec, DecodesNameAndLabelsAndRoundTrips) {
  auto node = DecodeObject<Node>(R"json({
    "apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "worker-1", "uid": "9c1d", "resourceVersion": "42",
                 "labels": {"kubernetes.io/hostname": "worker-1"}},
    "spec": {"podCIDR": "10.0.1.0/24"},
    "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.5"}]}})json");
  ASSERT_TRUE(node.ok()) << node.error().message;
  EXPECT_EQ(node->metadata.name, "worker-1");
  EXPECT_EQ(node->metadata.labels, (StringMap{{"kubernetes.io/hostname", "worker-1"}}));
  EXPECT_EQ(ResourcePath<Node>("", "worker-1"), "/api/v1/nodes/worker-1");

  auto again = DecodeObject<Node>(EncodeObject(*node));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *node);
}

TEST(NodeAffinity, NoTermsMatchNoNode) { EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {})); }

TEST(NodeAffinity, AnEmptyTermMatchesNoNode) {
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {NodeSelectorTerm{}}));
}

TEST(NodeAffinity, TermsAreOredAndRequirementsAnded) {
  const NodeSelectorRequirement in_a{"topology.kubernetes.io/zone", "In", {"a", "b"}};
  const NodeSelectorRequirement in_c{"topology.kubernetes.io/zone", "In", {"c"}};
  const NodeSelectorRequirement gpu{"gpu", "Exists", {}};
  EXPECT_TRUE(MatchesNodeSelectorTerms(kZoneA, {Expressions({in_a})}));
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {Expressions({in_a, gpu})}));
  EXPECT_TRUE(MatchesNodeSelectorTerms(kZoneA, {Expressions({in_c}), Expressions({in_a})}));
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {Expressions({in_c}), Expressions({gpu})}));
}

TEST(NodeAffinity, LabelOperators) {
  auto matches = [](NodeSelectorRequirement r) {
    return MatchesNodeSelectorTerms(kZoneA, {Expressions({std::move(r)})});
  };
  EXPECT_TRUE(matches({"topology.kubernetes.io/zone", "NotIn", {"b"}}));
  EXPECT_FALSE(matches({"topology.kubernetes.io/zone", "NotIn", {"a"}}));
  EXPECT_TRUE(matches({"absent", "NotIn", {"a"}}));
  EXPECT_FALSE(matches({"absent", "In", {"a"}}));
  EXPECT_TRUE(matches({"cpus", "Exists", {}}));
  EXPECT_TRUE(matches({"gpu", "DoesNotExist", {}}));
  EXPECT_FALSE(matches({"cpus", "DoesNotExist", {}}));
  EXPECT_TRUE(matches({"cpus", "Gt", {"4"}}));
  EXPECT_FALSE(matches({"cpus", "Gt", {"8"}}));
  EXPECT_TRUE(matches({"cpus", "Lt", {"16"}}));
  EXPECT_FALSE(matches({"topology.kubernetes.io/zone", "Gt", {"1"}}));  // "a" is no integer
  EXPECT_FALSE(matches({"absent", "Lt", {"1"}}));
}

TEST(NodeAffinity, RequirementsTheApiRefusesFailTheirTerm) {
  auto matches = [](NodeSelectorRequirement r) {
    return MatchesNodeSelectorTerms(kZoneA, {Expressions({std::move(r)})});
  };
  EXPECT_FALSE(matches({"topology.kubernetes.io/zone", "In", {}}));
  EXPECT_FALSE(matches({"gpu", "NotIn", {}}));
  EXPECT_FALSE(matches({"cpus", "Exists", {"8"}}));
  EXPECT_FALSE(matches({"cpus", "Gt", {"4", "5"}}));
  EXPECT_FALSE(matches({"cpus", "Gt", {"four"}}));
  EXPECT_FALSE(matches({"cpus", "Equals", {"8"}}));
  // A refused term does not spoil another that matches.
  EXPECT_TRUE(MatchesNodeSelectorTerms(
      kZoneA, {Expressions({{"cpus", "Equals", {"8"}}}),
               Expressions({{"topology.kubernetes.io/zone", "In", {"a"}}})}));
}

TEST(NodeAffinity, MatchFieldsNameTheNode) {
  auto term = [](std::string op, std::vector<std::string> values) {
    return NodeSelectorTerm{.match_expressions = {},
                            .match_fields = {{"metadata.name", std::move(op), std::move(values)}}};
  };
  EXPECT_TRUE(MatchesNodeSelectorTerms(kZoneA, {term("In", {"node-a"})}));
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {term("In", {"node-b"})}));
  EXPECT_TRUE(MatchesNodeSelectorTerms(kZoneA, {term("NotIn", {"node-b"})}));
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {term("In", {"node-a", "node-b"})}));
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {term("Exists", {})}));

  NodeSelectorTerm both = term("In", {"node-a"});
  both.match_expressions = {{"topology.kubernetes.io/zone", "In", {"b"}}};
  EXPECT_FALSE(MatchesNodeSelectorTerms(kZoneA, {both}));
}

}  // namespace
}  // namespace kube
