// plugins/gce_pd_test.go of csi-translation-lib (docs/migration.md §5), plus the
// malformed regional zones.
#include "migration/gce_pd.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "migration/topology.h"
#include "migration/translate.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::PvWith;

base::Result<kube::PersistentVolume> TranslatePd(kube::StringMap labels, int32_t partition = 0) {
  return TranslateInTreePvToCsi(PvWith(
      [&] {
        kube::GCEPersistentDiskVolumeSource v;
        v.pd_name = "pd-name";
        v.partition = partition;
        return v;
      }(),
      std::move(labels)));
}

std::string HandleOf(const kube::PersistentVolume& pv) {
  return std::get<kube::CSIPersistentVolumeSource>(pv.spec.source).volume_handle;
}

struct VolIdCase {
  std::string name;
  std::string label;
  std::string zones;
  std::string want;
};

class GceVolIdFmtTest : public ::testing::TestWithParam<VolIdCase> {};

TEST_P(GceVolIdFmtTest, HandleFollowsZoneLabel) {
  const VolIdCase& c = GetParam();
  auto pv = TranslatePd({{c.label, c.zones}});
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(HandleOf(*pv), c.want);
}

// The first four rows are TestTranslateInTreePVToCSIVolIDFmt.
INSTANTIATE_TEST_SUITE_P(
    TestTranslateInTreePVToCSIVolIDFmt, GceVolIdFmtTest,
    ::testing::Values(VolIdCase{"BetaZone", std::string(kBetaZoneLabel), "us-east1-a",
                                "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name"},
                      VolIdCase{"GaZone", std::string(kGaZoneLabel), "us-east1-a",
                                "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name"},
                      VolIdCase{"BetaRegional", std::string(kBetaZoneLabel),
                                "us-central1-a__us-central1-c",
                                "projects/UNSPECIFIED/regions/us-central1/disks/pd-name"},
                      VolIdCase{"GaRegional", std::string(kGaZoneLabel),
                                "us-central1-a__us-central1-c",
                                "projects/UNSPECIFIED/regions/us-central1/disks/pd-name"},
                      VolIdCase{"NoZoneLabelIsUnspecified", "other", "us-east1-a",
                                "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd-name"},
                      VolIdCase{"EmptyZoneLabelIsUnspecified", std::string(kGaZoneLabel), "",
                                "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd-name"}),
    [](const auto& info) { return info.param.name; });

TEST(GcePdTest, BetaLabelWinsOverGa) {
  auto pv = TranslatePd({{std::string(kBetaZoneLabel), "b-c-d"}, {std::string(kGaZoneLabel), "x"}});
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(HandleOf(*pv), "projects/UNSPECIFIED/zones/b-c-d/disks/pd-name");
}

struct RegionalCase {
  std::string name;
  std::string zones;
  std::string want_error;
};

class GceRegionalZonesTest : public ::testing::TestWithParam<RegionalCase> {};

// §2.1: every zone of a regional label must be <locale>-<region>-<zone> of
// one region.
TEST_P(GceRegionalZonesTest, WrongShapeFails) {
  auto pv = TranslatePd({{std::string(kGaZoneLabel), GetParam().zones}});
  ASSERT_FALSE(pv.ok()) << HandleOf(*pv);
  EXPECT_EQ(pv.error().message, GetParam().want_error);
}

INSTANTIATE_TEST_SUITE_P(
    RegionalZones, GceRegionalZonesTest,
    ::testing::Values(
        RegionalCase{"TwoPartZone", "us-central1__us-central1-c",
                     "failed to get region from zones: zone in unexpected format, expected: "
                     "{locale}-{region}-{zone}, got: us-central1"},
        RegionalCase{"FourPartZone", "us-central1-a-b__us-central1-c",
                     "failed to get region from zones: zone in unexpected format, expected: "
                     "{locale}-{region}-{zone}, got: us-central1-a-b"},
        RegionalCase{"TwoRegions", "us-central1-a__us-east1-b",
                     "failed to get region from zones: multiple or no regions gotten from zones, "
                     "got: map[us-central1:{} us-east1:{}]"},
        RegionalCase{"TrailingSeparator", "us-central1-a__",
                     "failed to get region from zones: zone in unexpected format, expected: "
                     "{locale}-{region}-{zone}, got: "}),
    [](const auto& info) { return info.param.name; });

// §2.1: the handle follows the labels, the topology follows nodeAffinity.
TEST(GcePdTest, LabelsAndNodeAffinityMayDisagree) {
  auto pv = TranslateInTreePvToCsi(PvWith(
      [] {
        kube::GCEPersistentDiskVolumeSource v;
        v.pd_name = "pd-name";
        v.fs_type = "ext4";
        v.read_only = true;
        return v;
      }(),
      {{std::string(kGaZoneLabel), "us-east1-a"}},
      testing::Na(std::string(kGaZoneLabel), {"us-west1-b"})));
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  const auto& csi = std::get<kube::CSIPersistentVolumeSource>(pv->spec.source);
  EXPECT_EQ(csi.volume_handle, "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name");
  EXPECT_EQ(csi.fs_type, "ext4");
  EXPECT_TRUE(csi.read_only);
  EXPECT_EQ(pv->spec.node_affinity, testing::Na(std::string(kGceTopologyKey), {"us-west1-b"}));
}

TEST(GcePdTest, PartitionAttributeIsEmptyForZero) {
  auto zero = TranslatePd({});
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(zero->spec.source).volume_attributes,
            (kube::StringMap{{"partition", ""}}));
  auto three = TranslatePd({}, 3);
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(three->spec.source).volume_attributes,
            (kube::StringMap{{"partition", "3"}}));
}

struct RepairCase {
  std::string name;
  std::string handle;
  std::string node_id;
  std::string want;  // empty = error
};

class RepairGcePdHandleTest : public ::testing::TestWithParam<RepairCase> {};

TEST_P(RepairGcePdHandleTest, FillsUnspecifiedFromNode) {
  const RepairCase& c = GetParam();
  auto repaired = RepairVolumeHandle("pd.csi.storage.gke.io", c.handle, c.node_id);
  if (c.want.empty()) {
    EXPECT_FALSE(repaired.ok()) << *repaired;
    return;
  }
  ASSERT_TRUE(repaired.ok()) << repaired.error().message;
  EXPECT_EQ(*repaired, c.want);
}

std::string Node(const std::string& zone) {
  return "projects/bing/zones/" + zone + "/instances/boom";
}

// All rows but the last are TestRepairVolumeHandle.
INSTANTIATE_TEST_SUITE_P(
    TestRepairVolumeHandle, RepairGcePdHandleTest,
    ::testing::Values(
        RepairCase{"KnownProjectZonal", "projects/foo/zones/bar/disks/baz", Node("bada"),
                   "projects/foo/zones/bar/disks/baz"},
        RepairCase{"KnownProjectRegional", "projects/foo/regions/us-central1-c/disks/baz",
                   Node("bada"), "projects/foo/regions/us-central1-c/disks/baz"},
        RepairCase{"UnspecifiedProject", "projects/UNSPECIFIED/zones/bar/disks/baz", Node("bada"),
                   "projects/bing/zones/bar/disks/baz"},
        RepairCase{"UnspecifiedProjectAndZone", "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/baz",
                   Node("bada"), "projects/bing/zones/bada/disks/baz"},
        RepairCase{"UnspecifiedProjectAndRegion",
                   "projects/UNSPECIFIED/regions/UNSPECIFIED/disks/baz", Node("us-central1-c"),
                   "projects/bing/regions/us-central1/disks/baz"},
        RepairCase{"UnspecifiedProjectKnownRegion",
                   "projects/UNSPECIFIED/regions/us-west1/disks/baz", Node("us-central1-c"),
                   "projects/bing/regions/us-west1/disks/baz"},
        RepairCase{"InvalidHandle", "foo", Node("bada"), ""},
        RepairCase{"InvalidNodeId", "projects/UNSPECIFIED/regions/us-west1/disks/baz", "foo", ""},
        RepairCase{"KnownProjectKeepsUnspecifiedZone", "projects/foo/zones/UNSPECIFIED/disks/baz",
                   Node("bada"), "projects/foo/zones/UNSPECIFIED/disks/baz"}),
    [](const auto& info) { return info.param.name; });

TEST(RepairGcePdHandleTest, ErrorMessages) {
  auto bad_handle = RepairGcePdHandle("foo", "projects/bing/zones/bada/instances/boom");
  ASSERT_FALSE(bad_handle.ok());
  EXPECT_EQ(bad_handle.error().message,
            "volume handle has wrong number of elements; got 1, wanted 6 or more");
  auto bad_node = RepairGcePdHandle("projects/UNSPECIFIED/zones/bar/disks/baz", "foo");
  ASSERT_FALSE(bad_node.ok());
  EXPECT_EQ(bad_node.error().message,
            "node handle has wrong number of elements; got 1, wanted 6 or more");
  auto bad_zone = RepairGcePdHandle("projects/UNSPECIFIED/regions/UNSPECIFIED/disks/baz",
                                    "projects/bing/zones/bada/instances/boom");
  ASSERT_FALSE(bad_zone.ok());
  EXPECT_THAT(bad_zone.error().message,
              ::testing::StartsWith("failed to get region from zone bada: "));
  auto bad_regionality = RepairGcePdHandle("projects/UNSPECIFIED/places/x/disks/baz",
                                           "projects/bing/zones/bada/instances/boom");
  ASSERT_FALSE(bad_regionality.ok());
  EXPECT_EQ(bad_regionality.error().message,
            "expected volume handle to have zones or regions regionality value, got: places");
}

struct AccessModesCase {
  std::string name;
  std::vector<std::string> modes;
  std::vector<std::string> want;
};

class GceAccessModesTest : public ::testing::TestWithParam<AccessModesCase> {};

// Through the translation, which must apply the rewrite.
TEST_P(GceAccessModesTest, Rewrites) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::GCEPersistentDiskVolumeSource v;
    v.pd_name = "pd";
    return v;
  }());
  pv.spec.access_modes = GetParam().modes;
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok());
  EXPECT_EQ(translated->spec.access_modes, GetParam().want);
}

const std::string kRox = "ReadOnlyMany";
const std::string kRwo = "ReadWriteOnce";
const std::string kRwx = "ReadWriteMany";

// The first seven rows are TestBackwardCompatibleAccessModes.
INSTANTIATE_TEST_SUITE_P(TestBackwardCompatibleAccessModes, GceAccessModesTest,
                         ::testing::Values(AccessModesCase{"Rox", {kRox}, {kRox}},
                                           AccessModesCase{"Rwo", {kRwo}, {kRwo}},
                                           AccessModesCase{"Rwx", {kRwx}, {kRwo}},
                                           AccessModesCase{"RoxRwo", {kRox, kRwo}, {kRwo}},
                                           AccessModesCase{"RwoRwx", {kRwo, kRwx}, {kRwo}},
                                           AccessModesCase{"RwxRox", {kRwx, kRox}, {kRwo}},
                                           AccessModesCase{"RwxRwoRox", {kRwx, kRwo, kRox}, {kRwo}},
                                           AccessModesCase{
                                               "RwopOnly", {"ReadWriteOncePod"}, {kRwo}},
                                           AccessModesCase{"NoneStaysNone", {}, {}}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace migration
