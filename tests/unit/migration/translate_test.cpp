// translate_test.go of csi-translation-lib, PV -> CSI direction
// (MIGRATION.md §5), and the dispatch rules of §2 and §4.
#include "migration/translate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "migration/drivers.h"
#include "migration/topology.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::BetaLabels;
using ::migration::testing::GaLabels;
using ::migration::testing::In;
using ::migration::testing::Na;
using ::migration::testing::PvWith;
using ::migration::testing::RegionalBetaLabels;
using ::migration::testing::RegionalGaLabels;

constexpr char kGke[] = "topology.gke.io/zone";
constexpr char kEbs[] = "topology.ebs.csi.aws.com/zone";
constexpr char kCinder[] = "topology.cinder.csi.openstack.org/zone";
const std::string kBetaZone(kBetaZoneLabel);
const std::string kGaZone(kGaZoneLabel);

kube::PersistentVolumeSource Gce() {
  kube::GCEPersistentDiskVolumeSource source;
  source.pd_name = "pd";
  return source;
}
kube::PersistentVolumeSource Ebs() {
  kube::AWSElasticBlockStoreVolumeSource source;
  source.volume_id = "vol01";
  return source;
}
kube::PersistentVolumeSource Cinder() {
  kube::CinderPersistentVolumeSource source;
  source.volume_id = "id";
  return source;
}

struct TopologyCase {
  std::string name;
  kube::PersistentVolume pv;
  std::vector<kube::NodeSelectorTerm> want;
};

class TopologyTranslationTest : public ::testing::TestWithParam<TopologyCase> {};

TEST_P(TopologyTranslationTest, RewritesNodeAffinity) {
  const TopologyCase& c = GetParam();
  auto translated = TranslateInTreePvToCsi(c.pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(translated->spec.node_affinity, c.want);
  EXPECT_EQ(translated->metadata.labels, c.pv.metadata.labels);
}

INSTANTIATE_TEST_SUITE_P(
    TestTopologyTranslation, TopologyTranslationTest,
    ::testing::Values(
        TopologyCase{"GceBetaLabels", PvWith(Gce(), BetaLabels()), Na(kGke, {"us-east-1a"})},
        TopologyCase{"GceGaLabels", PvWith(Gce(), GaLabels()), Na(kGke, {"us-east-1a"})},
        TopologyCase{"GceBetaAffinity", PvWith(Gce(), {}, Na(kBetaZone, {"us-east-2a"})),
                     Na(kGke, {"us-east-2a"})},
        TopologyCase{"GceCsiAffinityUnchanged", PvWith(Gce(), {}, Na(kGke, {"us-east-2a"})),
                     Na(kGke, {"us-east-2a"})},
        TopologyCase{"GceBetaLabelsAndAffinity",
                     PvWith(Gce(), BetaLabels(), Na(kBetaZone, {"us-east-2a"})),
                     Na(kGke, {"us-east-2a"})},
        TopologyCase{"GceRegionalBetaLabels", PvWith(Gce(), RegionalBetaLabels()),
                     Na(kGke, {"europe-west1-b", "europe-west1-c"})},
        TopologyCase{"GceRegionalGaAffinity",
                     PvWith(Gce(), {}, Na(kGaZone, {"europe-west1-b", "europe-west1-c"})),
                     Na(kGke, {"europe-west1-b", "europe-west1-c"})},
        TopologyCase{"GceRegionalBetaLabelsAndAffinity",
                     PvWith(Gce(), RegionalBetaLabels(),
                            Na(kBetaZone, {"europe-west1-f", "europe-west1-g"})),
                     Na(kGke, {"europe-west1-f", "europe-west1-g"})},
        TopologyCase{
            "GceRegionalGaLabelsAndAffinity",
            PvWith(Gce(), RegionalGaLabels(), Na(kGaZone, {"europe-west1-f", "europe-west1-g"})),
            Na(kGke, {"europe-west1-f", "europe-west1-g"})},
        TopologyCase{"GceTwoTerms",
                     PvWith(Gce(), {},
                            {kube::NodeSelectorTerm{{In(kGaZone, {"europe-west1-f"})}},
                             kube::NodeSelectorTerm{{In(kGaZone, {"europe-west1-g"})}}}),
                     {kube::NodeSelectorTerm{{In(kGke, {"europe-west1-f"})}},
                      kube::NodeSelectorTerm{{In(kGke, {"europe-west1-g"})}}}},
        TopologyCase{"EbsBetaLabels", PvWith(Ebs(), BetaLabels()), Na(kEbs, {"us-east-1a"})},
        TopologyCase{"EbsBetaLabelsAndAffinity",
                     PvWith(Ebs(), BetaLabels(), Na(kBetaZone, {"us-east-2a"})),
                     Na(kEbs, {"us-east-2a"})},
        TopologyCase{"EbsGaLabels", PvWith(Ebs(), GaLabels()), Na(kEbs, {"us-east-1a"})},
        TopologyCase{"EbsGaLabelsAndAffinity",
                     PvWith(Ebs(), GaLabels(), Na(kGaZone, {"us-east-2a"})),
                     Na(kEbs, {"us-east-2a"})},
        TopologyCase{"CinderBetaLabels", PvWith(Cinder(), BetaLabels()),
                     Na(kCinder, {"us-east-1a"})},
        TopologyCase{"CinderBetaLabelsAndAffinity",
                     PvWith(Cinder(), BetaLabels(), Na(kBetaZone, {"us-east-2a"})),
                     Na(kCinder, {"us-east-2a"})}),
    [](const ::testing::TestParamInfo<TopologyCase>& info) { return info.param.name; });

// TestTranslationStability, forward half: only the source changes.
TEST(TranslateInTreePvToCsiTest, GceKeepsEverythingButTheSource) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::GCEPersistentDiskVolumeSource v;
    v.pd_name = "test-disk";
    v.fs_type = "ext4";
    v.partition = 0;
    v.read_only = false;
    return v;
  }());
  pv.spec.capacity_storage = "10Gi";
  pv.spec.mount_options = {"debug"};
  pv.spec.claim_ref = kube::ClaimReference{"ns", "claim", "uid"};
  pv.metadata.annotations = {{"a", "b"}};
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  kube::PersistentVolume want = pv;
  want.spec.source = [&] {
    kube::CSIPersistentVolumeSource v;
    v.driver = "pd.csi.storage.gke.io";
    v.volume_handle = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/test-disk";
    v.fs_type = "ext4";
    v.volume_attributes = {{"partition", ""}};
    return v;
  }();
  EXPECT_EQ(*translated, want);
  EXPECT_TRUE(std::holds_alternative<kube::GCEPersistentDiskVolumeSource>(pv.spec.source));
}

TEST(TranslateInTreePvToCsiTest, EbsKeepsEverythingButTheSource) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::AWSElasticBlockStoreVolumeSource v;
    v.volume_id = "vol01";
    v.fs_type = "ext3";
    v.partition = 1;
    v.read_only = true;
    return v;
  }());
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  kube::PersistentVolume want = pv;
  want.spec.source = [&] {
    kube::CSIPersistentVolumeSource v;
    v.driver = "ebs.csi.aws.com";
    v.volume_handle = "vol01";
    v.fs_type = "ext3";
    v.read_only = true;
    v.volume_attributes = {{"partition", "1"}};
    return v;
  }();
  EXPECT_EQ(*translated, want);
}

TEST(TranslateInTreePvToCsiTest, RejectsPvsWithoutInTreeSource) {
  for (const kube::PersistentVolumeSource& source :
       {kube::PersistentVolumeSource(),
        kube::PersistentVolumeSource(kube::OtherVolumeSource{"nfs"}),
        kube::PersistentVolumeSource([&] {
          kube::CSIPersistentVolumeSource v;
          v.driver = "d";
          return v;
        }())}) {
    kube::PersistentVolume pv = PvWith(source);
    EXPECT_FALSE(IsPvMigratable(pv));
    auto translated = TranslateInTreePvToCsi(pv);
    ASSERT_FALSE(translated.ok());
    EXPECT_EQ(translated.error().message,
              "could not find in-tree plugin translation logic for \"pv\"");
  }
}

TEST(IsPvMigratableTest, AllSevenInTreeSources) {
  for (const kube::PersistentVolumeSource& source :
       {Gce(), Ebs(), Cinder(), kube::PersistentVolumeSource(kube::AzureDiskVolumeSource{}),
        kube::PersistentVolumeSource(kube::AzureFilePersistentVolumeSource{}),
        kube::PersistentVolumeSource(kube::VsphereVirtualDiskVolumeSource{}),
        kube::PersistentVolumeSource(kube::PortworxVolumeSource{})}) {
    EXPECT_TRUE(IsPvMigratable(PvWith(source))) << source.index();
  }
}

// TestPluginNameMappings, the half the attacher uses.
TEST(IsMigratedCsiDriverByNameTest, ExactDriverNames) {
  for (std::string_view driver :
       {"pd.csi.storage.gke.io", "ebs.csi.aws.com", "cinder.csi.openstack.org",
        "disk.csi.azure.com", "file.csi.azure.com", "csi.vsphere.vmware.com", "pxd.portworx.com"}) {
    EXPECT_TRUE(IsMigratedCsiDriverByName(driver)) << driver;
  }
  EXPECT_FALSE(IsMigratedCsiDriverByName("kubernetes.io/gce-pd"));
  EXPECT_FALSE(IsMigratedCsiDriverByName("rbd.csi.ceph.com"));
  EXPECT_FALSE(IsMigratedCsiDriverByName("PD.csi.storage.gke.io"));
}

TEST(RepairVolumeHandleTest, OnlyGceRewrites) {
  auto repaired = RepairVolumeHandle("pd.csi.storage.gke.io",
                                     "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/baz",
                                     "projects/bing/zones/bada/instances/boom");
  ASSERT_TRUE(repaired.ok()) << repaired.error().message;
  EXPECT_EQ(*repaired, "projects/bing/zones/bada/disks/baz");
  for (std::string_view driver :
       {"ebs.csi.aws.com", "cinder.csi.openstack.org", "disk.csi.azure.com", "file.csi.azure.com",
        "csi.vsphere.vmware.com", "pxd.portworx.com"}) {
    auto kept = RepairVolumeHandle(driver, "projects/UNSPECIFIED/zones/x/disks/y", "node");
    ASSERT_TRUE(kept.ok()) << driver;
    EXPECT_EQ(*kept, "projects/UNSPECIFIED/zones/x/disks/y");
  }
  auto unknown = RepairVolumeHandle("hostpath.csi.k8s.io", "h", "n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "could not find In-Tree driver name for CSI plugin hostpath.csi.k8s.io");
}

}  // namespace
}  // namespace migration
