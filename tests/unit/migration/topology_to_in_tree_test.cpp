// TestTranslateTopologyFromCSIToInTree and TestGetAwsRegionFromZones of
// csi-translation-lib (plugins/in_tree_volume_test.go, aws_ebs_test.go), and
// the region parsers' error texts (docs/migration.md §8.3).
#include "migration/topology_to_in_tree.h"

#include <gtest/gtest.h>

#include <ostream>

#include "expect_result.h"
#include "migration/aws_ebs.h"
#include "migration/gce_pd.h"
#include "migration/topology.h"
#include "test_pvs.h"

// A named namespace: the test files of a target share translation units.
namespace migration::topology_to_in_tree_test {
namespace {

using ::migration::testing::ExpectValueOrError;
using ::migration::testing::In;
using ::migration::testing::Na;
using ::migration::testing::PvWith;
using ::migration::testing::ResultCase;
using Terms = std::vector<kube::NodeSelectorTerm>;

const std::string kGke = "topology.gke.io/zone";
const std::string kGaZone(kGaZoneLabel);
const std::string kGaRegion(kGaRegionLabel);
const std::string kBetaZone(kBetaZoneLabel);
const std::string kBetaRegion(kBetaRegionLabel);

kube::StringMap GaEast1a() { return {{kGaZone, "us-east1-a"}, {kGaRegion, "us-east1"}}; }
kube::StringMap BetaWest2b() { return {{kBetaZone, "us-west2-b"}, {kBetaRegion, "us-west2"}}; }

struct TopologyCase {
  std::string name;
  kube::StringMap labels;
  Terms affinity;
  RegionParser region_of;
  Terms want_affinity;
  kube::StringMap want_labels;
  std::string want_error = "";  // empty: success
};

// A failing row prints as its name.
void PrintTo(const TopologyCase& c, std::ostream* os) { *os << c.name; }

class ZoneTopologyToInTreeTest : public ::testing::TestWithParam<TopologyCase> {};

TEST_P(ZoneTopologyToInTreeTest, RenamesKeysAndAddsRegionAndLabels) {
  const TopologyCase& c = GetParam();
  kube::PersistentVolume pv = PvWith(kube::CSIPersistentVolumeSource{}, c.labels, c.affinity);
  base::Status translated = TranslateZoneTopologyToInTree(pv, kGke, c.region_of);
  if (!c.want_error.empty()) {
    ASSERT_FALSE(translated.ok());
    EXPECT_EQ(translated.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(pv.spec.node_affinity, c.want_affinity);
  EXPECT_EQ(pv.metadata.labels, c.want_labels);
}

INSTANTIATE_TEST_SUITE_P(
    TestTranslateTopologyFromCSIToInTree, ZoneTopologyToInTreeTest,
    ::testing::Values(
        TopologyCase{
            "ExistingGaRegionIsKept", GaEast1a(),
            Terms{{{In(kGaRegion, {"us-east1"}), In(kGke, {"us-east1-a"})}}}, GceRegionFromZones,
            Terms{{{In(kGaRegion, {"us-east1"}), In(kGaZone, {"us-east1-a"})}}}, GaEast1a()},
        TopologyCase{
            "ExistingBetaRegionIsKept", BetaWest2b(),
            Terms{{{In(kBetaRegion, {"us-west2"}), In(kGke, {"us-west2-b"})}}}, GceRegionFromZones,
            Terms{{{In(kBetaRegion, {"us-west2"}), In(kBetaZone, {"us-west2-b"})}}}, BetaWest2b()},
        TopologyCase{"PresentLabelsAreNotOverwritten",
                     {{kGaZone, "existingZone"}, {kGaRegion, "existingRegion"}},
                     Na(kGke, {"us-east1-a"}),
                     GceRegionFromZones,
                     Terms{{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}},
                     {{kGaZone, "existingZone"}, {kGaRegion, "existingRegion"}}},
        TopologyCase{"NoTermsNoChange",
                     {{kGaZone, "existingZone"}, {kGaRegion, "existingRegion"}},
                     {},
                     GceRegionFromZones,
                     {},
                     {{kGaZone, "existingZone"}, {kGaRegion, "existingRegion"}}},
        TopologyCase{"GaLabelsAndRegionFromCsiTopology",
                     {},
                     Na(kGke, {"us-east1-a"}),
                     GceRegionFromZones,
                     Terms{{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}},
                     GaEast1a()},
        TopologyCase{"BetaAffinityChoosesBetaKeys",
                     {},
                     Na(kBetaZone, {"us-west2-b"}),
                     GceRegionFromZones,
                     Terms{{{In(kBetaZone, {"us-west2-b"}), In(kBetaRegion, {"us-west2"})}}},
                     BetaWest2b()},
        TopologyCase{"WithoutParserOnlyZone",
                     {},
                     Na(kGke, {"us-east1-a"}),
                     nullptr,
                     Na(kGaZone, {"us-east1-a"}),
                     {{kGaZone, "us-east1-a"}}},
        TopologyCase{"EveryTermGetsItsRegion",
                     {},
                     Terms{{{In(kGke, {"us-east1-a"})}}, {{In(kGke, {"us-east1-c"})}}},
                     GceRegionFromZones,
                     Terms{{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}},
                           {{In(kGaZone, {"us-east1-c"}), In(kGaRegion, {"us-east1"})}}},
                     {{kGaZone, "us-east1-a__us-east1-c"}, {kGaRegion, "us-east1"}}},
        // Beyond upstream's rows (its Cinder row is in to_in_tree_test.cpp).
        TopologyCase{"TermsInTwoRegionsGetNoRegionLabel",
                     {},
                     Terms{{{In(kGke, {"us-east1-a"})}}, {{In(kGke, {"us-west1-a"})}}},
                     GceRegionFromZones,
                     Terms{{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}},
                           {{In(kGaZone, {"us-west1-a"}), In(kGaRegion, {"us-west1"})}}},
                     {{kGaZone, "us-east1-a__us-west1-a"}}},
        TopologyCase{"UnparsableZoneFails",
                     {},
                     Na(kGke, {"bad"}),
                     GceRegionFromZones,
                     {},
                     {},
                     "Failed to handle region topology. error: zone in unexpected format, "
                     "expected: {locale}-{region}-{zone}, got: bad"},
        TopologyCase{"TermWithoutZoneFails",
                     {},
                     Na("rack", {"r1"}),
                     GceRegionFromZones,
                     {},
                     {},
                     "Failed to handle region topology. error: no zones specified"},
        TopologyCase{"TermInTwoRegionsFails",
                     {},
                     Na(kGke, {"us-east1-a", "us-west1-b"}),
                     GceRegionFromZones,
                     {},
                     {},
                     "Failed to handle region topology. error: multiple or no regions gotten "
                     "from zones, got: map[us-east1:{} us-west1:{}]"},
        TopologyCase{
            "AwsParser",
            {},
            Na(kGke, {"us-west-2a", "us-west-2b"}),
            AwsRegionFromZones,
            Terms{{{In(kGaZone, {"us-west-2a", "us-west-2b"}), In(kGaRegion, {"us-west-2"})}}},
            {{kGaZone, "us-west-2a__us-west-2b"}, {kGaRegion, "us-west-2"}}}),
    [](const auto& info) { return info.param.name; });

TEST(VsphereTopologyToInTreeTest, RenamesZoneAndRegionAndLabelsTheFirstValues) {
  kube::PersistentVolume pv = PvWith(kube::CSIPersistentVolumeSource{}, {},
                                     Terms{{{In("topology.csi.vmware.com/zone", {"z2", "z1"}),
                                             In("topology.csi.vmware.com/region", {"r1"})}}});
  TranslateVsphereTopologyToInTree(pv, "topology.csi.vmware.com/zone",
                                   "topology.csi.vmware.com/region");
  EXPECT_EQ(pv.spec.node_affinity, (Terms{{{In(kGaZone, {"z2", "z1"}), In(kGaRegion, {"r1"})}}}));
  EXPECT_EQ(pv.metadata.labels, (kube::StringMap{{kGaZone, "z1"}, {kGaRegion, "r1"}}));
}

TEST(VsphereTopologyToInTreeTest, BetaLabelsChooseBetaKeysAndStay) {
  kube::PersistentVolume pv = PvWith(kube::CSIPersistentVolumeSource{}, {{kBetaZone, "old"}},
                                     Na("topology.csi.vmware.com/zone", {"z1"}));
  TranslateVsphereTopologyToInTree(pv, "topology.csi.vmware.com/zone",
                                   "topology.csi.vmware.com/region");
  EXPECT_EQ(pv.spec.node_affinity, Na(kBetaZone, {"z1"}));
  EXPECT_EQ(pv.metadata.labels, (kube::StringMap{{kBetaZone, "old"}}));
}

// {zones, region}
using RegionCase = ResultCase<std::vector<std::string>, std::string>;

class AwsRegionFromZonesTest : public ::testing::TestWithParam<RegionCase> {};

TEST_P(AwsRegionFromZonesTest, FindsTheOneRegion) {
  const RegionCase& c = GetParam();
  ExpectValueOrError(AwsRegionFromZones(c.input), c.want, c.want_error);
}

INSTANTIATE_TEST_SUITE_P(
    TestGetAwsRegionFromZones, AwsRegionFromZonesTest,
    ::testing::Values(
        RegionCase{"CommercialZones", {"us-west-2a", "us-west-2b"}, "us-west-2", ""},
        RegionCase{"GovcloudZone", {"us-gov-east-1a"}, "us-gov-east-1", ""},
        RegionCase{"WavelengthZone", {"us-east-1-wl1-bos-wlz-1"}, "us-east-1", ""},
        RegionCase{"LocalZone", {"us-west-2-lax-1a"}, "us-west-2", ""},
        RegionCase{"NoZonesFail", {}, "", "no zones specified"},
        RegionCase{"TwoRegionsFail",
                   {"us-west-2a", "us-east-1a"},
                   "",
                   "multiple or no regions gotten from zones, got: map[us-east-1:{} us-west-2:{}]"},
        RegionCase{"RegionNameOnlyFails",
                   {"us-west-2"},
                   "",
                   "Unexpected zone format: us-west-2 is not a valid AWS zone"},
        RegionCase{"LongSuffixFails",
                   {"us-west-2ab"},
                   "",
                   "Unexpected zone format: us-west-2ab is not a valid AWS zone"},
        RegionCase{"TooFewPartsFail",
                   {"us-west"},
                   "",
                   "Unexpected zone format: us-west is not a valid AWS zone"}),
    [](const auto& info) { return info.param.name; });

TEST(GceRegionFromZonesTest, NoZonesFail) {
  auto region = GceRegionFromZones({});
  ASSERT_FALSE(region.ok());
  EXPECT_EQ(region.error().message, "no zones specified");
}

}  // namespace
}  // namespace migration::topology_to_in_tree_test
