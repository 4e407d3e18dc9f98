// docs/provisioner.md §3.6 and §3.9: the term arithmetic of topology -
// allowedTopologies flattened, subsets, sorting, the StatefulSet spreading
// of Immediate binding, the PV's node affinity, and the Go texts of
// upstream's messages.
#include "provisioner/topology_terms.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace provisioner {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

kube::TopologySelectorTerm Selector(std::vector<kube::TopologySelectorLabelRequirement> reqs) {
  return {.match_label_expressions = std::move(reqs)};
}

TEST(TopologyTermsTest, FlattenDistributesEachRequirementsValuesOverTheOthers) {
  std::vector<TopologyTerm> terms = Flatten(
      {Selector({{"zone", {"z1", "z2"}}, {"rack", {"rA", "rB"}}}), Selector({{"zone", {"z9"}}})});
  EXPECT_THAT(terms, ElementsAre(TopologyTerm{{"rack", "rA"}, {"zone", "z1"}},
                                 TopologyTerm{{"rack", "rA"}, {"zone", "z2"}},
                                 TopologyTerm{{"rack", "rB"}, {"zone", "z1"}},
                                 TopologyTerm{{"rack", "rB"}, {"zone", "z2"}},
                                 TopologyTerm{{"zone", "z9"}}));
}

TEST(TopologyTermsTest, FlattenOfSelectorsWithoutValuesIsEmpty) {
  EXPECT_THAT(Flatten({Selector({}), Selector({{"zone", {}}})}), IsEmpty());
}

TEST(TopologyTermsTest, TermOfLabelsNeedsEveryKey) {
  kube::StringMap labels{{"zone", "z1"}, {"rack", "r1"}, {"os", "linux"}};
  EXPECT_EQ(TermOfLabels(labels, {"zone", "rack"}), (TopologyTerm{{"rack", "r1"}, {"zone", "z1"}}));
  EXPECT_EQ(TermOfLabels(labels, {"zone", "row"}), std::nullopt);
}

TEST(TopologyTermsTest, SubsetMatchesSegmentsByKeyAndValue) {
  TopologyTerm node{{"rack", "r1"}, {"zone", "z1"}};
  EXPECT_TRUE(IsSubset({}, node));
  EXPECT_TRUE(IsSubset({{"zone", "z1"}}, node));
  EXPECT_TRUE(IsSubset(node, node));
  EXPECT_FALSE(IsSubset({{"zone", "z2"}}, node));
  EXPECT_FALSE(IsSubset({{"row", "w1"}}, node));
  EXPECT_FALSE(IsSubset({{"rack", "r1"}, {"zone", "z1"}, {"zz", "1"}}, node));
}

TEST(TopologyTermsTest, SortingPutsShorterTermsFirstAndDropsDuplicates) {
  std::vector<TopologyTerm> terms{
      {{"zone", "z2"}}, {{"rack", "r1"}, {"zone", "z1"}}, {{"zone", "z1"}}, {{"zone", "z2"}}};
  SortAndDeduplicate(terms);
  EXPECT_THAT(terms, ElementsAre(TopologyTerm{{"zone", "z1"}}, TopologyTerm{{"zone", "z2"}},
                                 TopologyTerm{{"rack", "r1"}, {"zone", "z1"}}));
}

// FNV-1 (32 bits) of "web" is 1181096325, of "db" 1836525763, of "cache"
// 59372449 (computed apart from this code).
TEST(TopologyTermsTest, StatefulSetSpreadHashesTheSetNameAndAddsTheOrdinal) {
  EXPECT_EQ(SpreadOffset("data-web-0", 4), 1181096325u % 4);
  EXPECT_EQ(SpreadOffset("data-web-1", 4), (1181096325u + 1) % 4);
  // Two claims of one replica land together.
  EXPECT_EQ(SpreadOffset("logs-web-1", 4), SpreadOffset("data-web-1", 4));
  // <name>-<ordinal> hashes <name>.
  EXPECT_EQ(SpreadOffset("db-7", 3), (1836525763u + 7) % 3);
  // No numeric last part: the whole name.
  EXPECT_EQ(SpreadOffset("cache", 4), 59372449u % 4);
  EXPECT_EQ(SpreadOffset("my-cache", 5), SpreadOffset("my-cache", 5));
  EXPECT_NE(SpreadOffset("web-x", 1000), SpreadOffset("data-web-x", 1000));
}

TEST(TopologyTermsTest, CsiTopologiesLeaveEmptyTermsOut) {
  auto topologies = ToCsi({{}, {{"zone", "z1"}, {"rack", "r1"}}});
  ASSERT_EQ(topologies.size(), 1);
  EXPECT_EQ(topologies[0].segments().at("zone"), "z1");
  EXPECT_EQ(topologies[0].segments().at("rack"), "r1");
}

TEST(TopologyTermsTest, NodeAffinityHasOneTermPerTopologyAndOneInPerSegment) {
  google::protobuf::RepeatedPtrField<csi::v1::Topology> accessible;
  (*accessible.Add()->mutable_segments())["zone"] = "z1";
  accessible.Add();  // empty: no term
  auto& second = *accessible.Add()->mutable_segments();
  second["zone"] = "z2";
  second["rack"] = "r2";
  std::vector<kube::NodeSelectorTerm> terms = NodeAffinityOf(accessible);
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_THAT(terms[0].match_expressions,
              ElementsAre(kube::NodeSelectorRequirement{"zone", "In", {"z1"}}));
  EXPECT_THAT(terms[1].match_expressions,
              ElementsAre(kube::NodeSelectorRequirement{"rack", "In", {"r2"}},
                          kube::NodeSelectorRequirement{"zone", "In", {"z2"}}));
  EXPECT_THAT(NodeAffinityOf({}), IsEmpty());
}

TEST(TopologyTermsTest, GoTextsAreUpstreamsPrintedValues) {
  EXPECT_EQ(GoText(TopologyTerm{{"rack", "r1"}, {"zone", "z1"}}), "[{rack r1} {zone z1}]");
  EXPECT_EQ(GoText(std::vector<TopologyTerm>{{{"zone", "a"}}, {{"zone", "b"}}}),
            "[[{zone a}] [{zone b}]]");
  EXPECT_EQ(GoText(std::vector<std::string>{"a", "b"}), "[a b]");
  EXPECT_EQ(GoText(std::vector<std::vector<std::string>>{{"a"}, {"b", "c"}}), "[[a] [b c]]");
  EXPECT_EQ(GoText(kube::StringMap{{"zone", "z1"}, {"a", "1"}}), "map[a:1 zone:z1]");
  EXPECT_EQ(GoText(kube::StringMap{}), "map[]");
}

}  // namespace
}  // namespace provisioner
