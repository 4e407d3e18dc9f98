// plugins/in_tree_volume_test.go of csi-translation-lib (docs/migration.md §5,
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

struct TopologyCase {
  std::string name;
  kube::StringMap labels;
  Terms affinity;
  Terms want;
};

class TranslateZoneTopologyTest : public ::testing::TestWithParam<TopologyCase> {};

TEST_P(TranslateZoneTopologyTest, Rewrites) {
  EXPECT_EQ(Translated(GetParam().labels, GetParam().affinity), GetParam().want);
}

// TestTranslateTopologyFromInTreeToCSI.
INSTANTIATE_TEST_SUITE_P(
    TestTranslateTopologyFromInTreeToCSI, TranslateZoneTopologyTest,
    ::testing::Values(
        TopologyCase{
            "GaZoneRenamedGaRegionKept",
            {},
            {kube::NodeSelectorTerm{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}},
            {kube::NodeSelectorTerm{{In(kGke, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}}},
        TopologyCase{
            "BetaZoneRenamedBetaRegionBecomesGa",
            {{kGaZone, "us-west2-a"}, {kGaRegion, "us-west2"}},
            {kube::NodeSelectorTerm{
                {In(kBetaZone, {"us-west2-b"}), In(kBetaRegion, {"us-west2"})}}},
            {kube::NodeSelectorTerm{{In(kGke, {"us-west2-b"}), In(kGaRegion, {"us-west2"})}}}},
        TopologyCase{"GaFlavourLeavesBetaRegionAlone",
                     {},
                     {kube::NodeSelectorTerm{{In(kGaZone, {"a"}), In(kBetaRegion, {"r"})}}},
                     {kube::NodeSelectorTerm{{In(kGke, {"a"}), In(kBetaRegion, {"r"})}}}},
        TopologyCase{"RegionLabelIsNotCopied",
                     {{kBetaZone, "z"}, {kBetaRegion, "r"}},
                     {},
                     testing::Na(kGke, {"z"})}),
    [](const auto& info) { return info.param.name; });

// TestAddTopology, through the zone label (upstream's errors for no valid
// zone mean "no change" here: the translation ignores them).
INSTANTIATE_TEST_SUITE_P(
    TestAddTopology, TranslateZoneTopologyTest,
    ::testing::Values(TopologyCase{"NoZonesNoChange", {{kGaZone, ""}}, {}, {}},
                      TopologyCase{"OnlyWhitespaceNoChange", {{kGaZone, "  __ "}}, {}, {}},
                      TopologyCase{"BlankZoneDropped",
                                   {{kGaZone, " __us-central1-a"}},
                                   {},
                                   testing::Na(kGke, {"us-central1-a"})},
                      TopologyCase{"SortedAndDeduplicated",
                                   {{kGaZone, "f__a__c__b__a"}},
                                   {},
                                   testing::Na(kGke, {"a", "b", "c", "f"})},
                      TopologyCase{"AppendedToEveryTerm",
                                   {{kGaZone, "z"}},
                                   {kube::NodeSelectorTerm{{In("a", {"1"})}},
                                    kube::NodeSelectorTerm{{In("b", {"2"})}}},
                                   {kube::NodeSelectorTerm{{In("a", {"1"}), In(kGke, {"z"})}},
                                    kube::NodeSelectorTerm{{In("b", {"2"}), In(kGke, {"z"})}}}}),
    [](const auto& info) { return info.param.name; });

// TestReplaceTopology.
INSTANTIATE_TEST_SUITE_P(
    TestReplaceTopology, TranslateZoneTopologyTest,
    ::testing::Values(TopologyCase{"SingleTermRenamed",
                                   {},
                                   testing::Na(kGaZone, {"a", "b"}),
                                   testing::Na(kGke, {"a", "b"})},
                      TopologyCase{
                          "MultiTermRenamed",
                          {},
                          {kube::NodeSelectorTerm{{In(kGaZone, {"a"}), In("other", {"x"})}},
                           kube::NodeSelectorTerm{{In(kGaZone, {"b"})}}},
                          {kube::NodeSelectorTerm{{In(kGke, {"a"}), In("other", {"x"})}},
                           kube::NodeSelectorTerm{{In(kGke, {"b"})}}}},
                      TopologyCase{"KeyNotFoundNoChange",
                                   {{"unrelated", "x"}},
                                   testing::Na("other", {"x"}),
                                   testing::Na("other", {"x"})},
                      TopologyCase{"NoMergingAndOperatorKept",
                                   {{kGaZone, "ignored"}},
                                   {kube::NodeSelectorTerm{{In(kGaZone, {"a"}), In(kGke, {"b"})}},
                                    kube::NodeSelectorTerm{{{kGaZone, "NotIn", {"c"}}}}},
                                   {kube::NodeSelectorTerm{{In(kGke, {"a"}), In(kGke, {"b"})}},
                                    kube::NodeSelectorTerm{{{kGke, "NotIn", {"c"}}}}}}),
    [](const auto& info) { return info.param.name; });

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
