// plugins/in_tree_volume_test.go of csi-translation-lib (MIGRATION.md §5,
// §2.0): the shared topology rewrite.
#include "migration/topology.h"

#include <gtest/gtest.h>

#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::In;
using ::migration::testing::PvWith;
using Terms = std::vector<kube::NodeSelectorTerm>;

constexpr char kGke[] = "topology.gke.io/zone";
const std::string kGaZone(kGaZoneLabel);
const std::string kGaRegion(kGaRegionLabel);
const std::string kBetaZone(kBetaZoneLabel);
const std::string kBetaRegion(kBetaRegionLabel);

Terms Translated(kube::StringMap labels, Terms affinity) {
  kube::PersistentVolume pv = PvWith({}, std::move(labels), std::move(affinity));
  TranslateZoneTopology(pv, kGke);
  return pv.spec.node_affinity;
}

// TestTranslateTopologyFromInTreeToCSI.
TEST(TranslateZoneTopologyTest, GaRegionIsKept) {
  EXPECT_EQ(
      Translated(
          {}, {kube::NodeSelectorTerm{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}}),
      (Terms{kube::NodeSelectorTerm{{In(kGke, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}}));
}

TEST(TranslateZoneTopologyTest, BetaRegionBecomesGa) {
  EXPECT_EQ(
      Translated(
          {{kGaZone, "us-west2-a"}, {kGaRegion, "us-west2"}},
          {kube::NodeSelectorTerm{{In(kBetaZone, {"us-west2-b"}), In(kBetaRegion, {"us-west2"})}}}),
      (Terms{kube::NodeSelectorTerm{{In(kGke, {"us-west2-b"}), In(kGaRegion, {"us-west2"})}}}));
}

// TestAddTopology, through the zone label.
TEST(TranslateZoneTopologyTest, LabelValues) {
  EXPECT_EQ(Translated({{kGaZone, ""}}, {}), Terms{});
  EXPECT_EQ(Translated({{kGaZone, "  __ "}}, {}), Terms{});
  EXPECT_EQ(Translated({{kGaZone, " __us-central1-a"}}, {}), testing::Na(kGke, {"us-central1-a"}));
  EXPECT_EQ(Translated({{kGaZone, "f__a__c__b__a"}}, {}), testing::Na(kGke, {"a", "b", "c", "f"}));
}

TEST(TranslateZoneTopologyTest, LabelZonesAreAppendedToEveryTerm) {
  EXPECT_EQ(Translated({{kGaZone, "z"}}, {kube::NodeSelectorTerm{{In("a", {"1"})}},
                                          kube::NodeSelectorTerm{{In("b", {"2"})}}}),
            (Terms{kube::NodeSelectorTerm{{In("a", {"1"}), In(kGke, {"z"})}},
                   kube::NodeSelectorTerm{{In("b", {"2"}), In(kGke, {"z"})}}}));
}

// TestReplaceTopology.
TEST(TranslateZoneTopologyTest, RenamesWithoutMerging) {
  Terms affinity = {
      kube::NodeSelectorTerm{{In(kGaZone, {"a"}), In(kGke, {"b"})}},
      kube::NodeSelectorTerm{{{kGaZone, "NotIn", {"c"}}}},
  };
  EXPECT_EQ(Translated({{kGaZone, "ignored"}}, affinity),
            (Terms{kube::NodeSelectorTerm{{In(kGke, {"a"}), In(kGke, {"b"})}},
                   kube::NodeSelectorTerm{{{kGke, "NotIn", {"c"}}}}}));
}

TEST(TranslateZoneTopologyTest, NoZoneNoChange) {
  Terms affinity = {kube::NodeSelectorTerm{{In("other", {"x"})}}};
  EXPECT_EQ(Translated({{"unrelated", "x"}}, affinity), affinity);
}

TEST(ChooseTopologyLabelsTest, FirstMatchWins) {
  EXPECT_EQ(ChooseTopologyLabels(PvWith({}, {{kBetaZone, "z"}}, testing::Na(kGaZone, {"a"}))).zone,
            kGaZoneLabel);
  EXPECT_EQ(ChooseTopologyLabels(PvWith({}, {{kGaZone, "z"}}, testing::Na(kBetaZone, {"a"}))).zone,
            kBetaZoneLabel);
  EXPECT_EQ(ChooseTopologyLabels(PvWith({}, {{kBetaZone, "z"}, {kGaZone, "z"}})).zone,
            kGaZoneLabel);
  EXPECT_EQ(ChooseTopologyLabels(PvWith({}, {{kBetaZone, "z"}})).region, kBetaRegionLabel);
  EXPECT_EQ(ChooseTopologyLabels(PvWith({})).region, kGaRegionLabel);
}

}  // namespace
}  // namespace migration
