// plugins/gce_pd_test.go of csi-translation-lib (MIGRATION.md §5), plus the
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

// TestTranslateInTreePVToCSIVolIDFmt.
INSTANTIATE_TEST_SUITE_P(
    TestTranslateInTreePVToCSIVolIDFmt, GceVolIdFmtTest,
    ::testing::Values(VolIdCase{std::string(kBetaZoneLabel), "us-east1-a",
                                "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name"},
                      VolIdCase{std::string(kGaZoneLabel), "us-east1-a",
                                "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name"},
                      VolIdCase{std::string(kBetaZoneLabel), "us-central1-a__us-central1-c",
                                "projects/UNSPECIFIED/regions/us-central1/disks/pd-name"},
                      VolIdCase{std::string(kGaZoneLabel), "us-central1-a__us-central1-c",
                                "projects/UNSPECIFIED/regions/us-central1/disks/pd-name"},
                      VolIdCase{"other", "us-east1-a",
                                "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd-name"},
                      VolIdCase{std::string(kGaZoneLabel), "",
                                "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd-name"}));

TEST(GcePdTest, BetaLabelWinsOverGa) {
  auto pv = TranslatePd({{std::string(kBetaZoneLabel), "b-c-d"}, {std::string(kGaZoneLabel), "x"}});
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(HandleOf(*pv), "projects/UNSPECIFIED/zones/b-c-d/disks/pd-name");
}

TEST(GcePdTest, RegionalZonesOfTheWrongShape) {
  auto two_parts = TranslatePd({{std::string(kGaZoneLabel), "us-central1__us-central1-c"}});
  ASSERT_FALSE(two_parts.ok());
  EXPECT_EQ(two_parts.error().message,
            "failed to get region from zones: zone in unexpected format, expected: "
            "{locale}-{region}-{zone}, got: us-central1");
  auto two_regions = TranslatePd({{std::string(kGaZoneLabel), "us-central1-a__us-east1-b"}});
  ASSERT_FALSE(two_regions.ok());
  EXPECT_THAT(two_regions.error().message,
              ::testing::StartsWith("failed to get region from zones: multiple or no regions"));
  auto trailing = TranslatePd({{std::string(kGaZoneLabel), "us-central1-a__"}});
  ASSERT_FALSE(trailing.ok());
  EXPECT_THAT(trailing.error().message, ::testing::StartsWith("failed to get region from zones"));
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
  std::string handle;
  std::string node_zone;
  std::string want;  // empty = error
};

class RepairGcePdHandleTest : public ::testing::TestWithParam<RepairCase> {};

// TestRepairVolumeHandle.
TEST_P(RepairGcePdHandleTest, FillsUnspecifiedFromNode) {
  const RepairCase& c = GetParam();
  auto repaired = RepairVolumeHandle("pd.csi.storage.gke.io", c.handle,
                                     "projects/bing/zones/" + c.node_zone + "/instances/boom");
  if (c.want.empty()) {
    EXPECT_FALSE(repaired.ok());
    return;
  }
  ASSERT_TRUE(repaired.ok()) << repaired.error().message;
  EXPECT_EQ(*repaired, c.want);
}

INSTANTIATE_TEST_SUITE_P(
    TestRepairVolumeHandle, RepairGcePdHandleTest,
    ::testing::Values(RepairCase{"projects/foo/zones/bar/disks/baz", "bada",
                                 "projects/foo/zones/bar/disks/baz"},
                      RepairCase{"projects/foo/regions/us-central1-c/disks/baz", "bada",
                                 "projects/foo/regions/us-central1-c/disks/baz"},
                      RepairCase{"projects/UNSPECIFIED/zones/bar/disks/baz", "bada",
                                 "projects/bing/zones/bar/disks/baz"},
                      RepairCase{"projects/UNSPECIFIED/zones/UNSPECIFIED/disks/baz", "bada",
                                 "projects/bing/zones/bada/disks/baz"},
                      RepairCase{"projects/UNSPECIFIED/regions/UNSPECIFIED/disks/baz",
                                 "us-central1-c", "projects/bing/regions/us-central1/disks/baz"},
                      RepairCase{"projects/UNSPECIFIED/regions/us-west1/disks/baz", "us-central1-c",
                                 "projects/bing/regions/us-west1/disks/baz"},
                      RepairCase{"foo", "bada", ""},
                      RepairCase{"projects/foo/zones/UNSPECIFIED/disks/baz", "bada",
                                 "projects/foo/zones/UNSPECIFIED/disks/baz"}));

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
  std::vector<std::string> modes;
  std::vector<std::string> want;
};

class GceAccessModesTest : public ::testing::TestWithParam<AccessModesCase> {};

// TestBackwardCompatibleAccessModes, through the translation.
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

INSTANTIATE_TEST_SUITE_P(
    TestBackwardCompatibleAccessModes, GceAccessModesTest,
    ::testing::Values(AccessModesCase{{kRox}, {kRox}}, AccessModesCase{{kRwo}, {kRwo}},
                      AccessModesCase{{kRwx}, {kRwo}}, AccessModesCase{{kRox, kRwo}, {kRwo}},
                      AccessModesCase{{kRwo, kRwx}, {kRwo}}, AccessModesCase{{kRwx, kRox}, {kRwo}},
                      AccessModesCase{{kRwx, kRwo, kRox}, {kRwo}},
                      AccessModesCase{{"ReadWriteOncePod"}, {kRwo}}, AccessModesCase{{}, {}}));

}  // namespace
}  // namespace migration
