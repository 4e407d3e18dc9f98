// translate_test.go of csi-translation-lib, PV -> CSI direction
// (docs/migration.md §5), and the dispatch rules of §2 and §4.
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

constexpr char kGkeKey[] = "topology.gke.io/zone";
constexpr char kEbs[] = "topology.ebs.csi.aws.com/zone";
constexpr char kCinder[] = "topology.cinder.csi.openstack.org/zone";
const std::string kBetaZoneKey(kBetaZoneLabel);
const std::string kGaZoneKey(kGaZoneLabel);

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

struct PvTopologyCase {
  std::string name;
  kube::PersistentVolume pv;
  std::vector<kube::NodeSelectorTerm> want;
};

class TopologyTranslationTest : public ::testing::TestWithParam<PvTopologyCase> {};

TEST_P(TopologyTranslationTest, RewritesNodeAffinity) {
  const PvTopologyCase& c = GetParam();
  auto translated = TranslateInTreePvToCsi(c.pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(translated->spec.node_affinity, c.want);
  EXPECT_EQ(translated->metadata.labels, c.pv.metadata.labels);
}

INSTANTIATE_TEST_SUITE_P(
    TestTopologyTranslation, TopologyTranslationTest,
    ::testing::Values(
        PvTopologyCase{"GceBetaLabels", PvWith(Gce(), BetaLabels()), Na(kGkeKey, {"us-east-1a"})},
        PvTopologyCase{"GceGaLabels", PvWith(Gce(), GaLabels()), Na(kGkeKey, {"us-east-1a"})},
        PvTopologyCase{"GceBetaAffinity", PvWith(Gce(), {}, Na(kBetaZoneKey, {"us-east-2a"})),
                       Na(kGkeKey, {"us-east-2a"})},
        PvTopologyCase{"GceCsiAffinityUnchanged", PvWith(Gce(), {}, Na(kGkeKey, {"us-east-2a"})),
                       Na(kGkeKey, {"us-east-2a"})},
        PvTopologyCase{"GceBetaLabelsAndAffinity",
                       PvWith(Gce(), BetaLabels(), Na(kBetaZoneKey, {"us-east-2a"})),
                       Na(kGkeKey, {"us-east-2a"})},
        PvTopologyCase{"GceRegionalBetaLabels", PvWith(Gce(), RegionalBetaLabels()),
                       Na(kGkeKey, {"europe-west1-b", "europe-west1-c"})},
        PvTopologyCase{"GceRegionalGaAffinity",
                       PvWith(Gce(), {}, Na(kGaZoneKey, {"europe-west1-b", "europe-west1-c"})),
                       Na(kGkeKey, {"europe-west1-b", "europe-west1-c"})},
        PvTopologyCase{"GceRegionalBetaLabelsAndAffinity",
                       PvWith(Gce(), RegionalBetaLabels(),
                              Na(kBetaZoneKey, {"europe-west1-f", "europe-west1-g"})),
                       Na(kGkeKey, {"europe-west1-f", "europe-west1-g"})},
        PvTopologyCase{
            "GceRegionalGaLabelsAndAffinity",
            PvWith(Gce(), RegionalGaLabels(), Na(kGaZoneKey, {"europe-west1-f", "europe-west1-g"})),
            Na(kGkeKey, {"europe-west1-f", "europe-west1-g"})},
        PvTopologyCase{"GceTwoTerms",
                       PvWith(Gce(), {},
                              {kube::NodeSelectorTerm{{In(kGaZoneKey, {"europe-west1-f"})}},
                               kube::NodeSelectorTerm{{In(kGaZoneKey, {"europe-west1-g"})}}}),
                       {kube::NodeSelectorTerm{{In(kGkeKey, {"europe-west1-f"})}},
                        kube::NodeSelectorTerm{{In(kGkeKey, {"europe-west1-g"})}}}},
        PvTopologyCase{"EbsBetaLabels", PvWith(Ebs(), BetaLabels()), Na(kEbs, {"us-east-1a"})},
        PvTopologyCase{"EbsBetaLabelsAndAffinity",
                       PvWith(Ebs(), BetaLabels(), Na(kBetaZoneKey, {"us-east-2a"})),
                       Na(kEbs, {"us-east-2a"})},
        PvTopologyCase{"EbsGaLabels", PvWith(Ebs(), GaLabels()), Na(kEbs, {"us-east-1a"})},
        PvTopologyCase{"EbsGaLabelsAndAffinity",
                       PvWith(Ebs(), GaLabels(), Na(kGaZoneKey, {"us-east-2a"})),
                       Na(kEbs, {"us-east-2a"})},
        PvTopologyCase{"CinderBetaLabels", PvWith(Cinder(), BetaLabels()),
                       Na(kCinder, {"us-east-1a"})},
        PvTopologyCase{"CinderBetaLabelsAndAffinity",
                       PvWith(Cinder(), BetaLabels(), Na(kBetaZoneKey, {"us-east-2a"})),
                       Na(kCinder, {"us-east-2a"})}),
    [](const ::testing::TestParamInfo<PvTopologyCase>& info) { return info.param.name; });

// TestTranslationStability, forward half: only the source changes.
TEST(TestTranslationStability, GceKeepsEverythingButTheSource) {
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

TEST(TestTranslationStability, EbsKeepsEverythingButTheSource) {
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

struct MigratableCase {
  std::string name;
  kube::PersistentVolumeSource source;
  bool want;
};

class IsPvMigratableTest : public ::testing::TestWithParam<MigratableCase> {};

// A PV that is not migratable has no translation either.
TEST_P(IsPvMigratableTest, ExactlyTheSevenInTreeSources) {
  const MigratableCase& c = GetParam();
  kube::PersistentVolume pv = PvWith(c.source);
  EXPECT_EQ(IsPvMigratable(pv), c.want);
  if (c.want) return;
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_FALSE(translated.ok());
  EXPECT_EQ(translated.error().message,
            "could not find in-tree plugin translation logic for \"pv\"");
}

// §4 IsPVMigratable; the annotations of §6 play no part.
INSTANTIATE_TEST_SUITE_P(
    IsPVMigratable, IsPvMigratableTest,
    ::testing::Values(MigratableCase{"GcePd", Gce(), true}, MigratableCase{"AwsEbs", Ebs(), true},
                      MigratableCase{"Cinder", Cinder(), true},
                      MigratableCase{"AzureDisk", kube::AzureDiskVolumeSource{}, true},
                      MigratableCase{"AzureFile", kube::AzureFilePersistentVolumeSource{}, true},
                      MigratableCase{"Vsphere", kube::VsphereVirtualDiskVolumeSource{}, true},
                      MigratableCase{"Portworx", kube::PortworxVolumeSource{}, true},
                      MigratableCase{"NoSource", std::monostate(), false},
                      MigratableCase{"Nfs", kube::OtherVolumeSource{"nfs"}, false},
                      MigratableCase{"Csi", kube::CSIPersistentVolumeSource{}, false}),
    [](const auto& info) { return info.param.name; });

TEST(IsPvMigratableTest, MigratedToAnnotationPlaysNoPart) {
  kube::PersistentVolume pv = PvWith(Gce());
  pv.metadata.annotations = {{"pv.kubernetes.io/migrated-to", "other.example.com"}};
  EXPECT_TRUE(IsPvMigratable(pv));
}

struct PluginCase {
  std::string name;
  std::string driver;
  std::optional<std::string_view> want_plugin;
};

class PluginNameTest : public ::testing::TestWithParam<PluginCase> {};

TEST_P(PluginNameTest, MapsDriverToInTreePlugin) {
  const PluginCase& c = GetParam();
  EXPECT_EQ(InTreePluginOf(c.driver), c.want_plugin);
  EXPECT_EQ(IsMigratedCsiDriverByName(c.driver), c.want_plugin.has_value());
}

// The first two rows are TestPluginNameMappings (CSI -> in-tree direction and
// IsMigratedCSIDriverByName); the others complete the §1 table.
INSTANTIATE_TEST_SUITE_P(
    TestPluginNameMappings, PluginNameTest,
    ::testing::Values(PluginCase{"GcePd", "pd.csi.storage.gke.io", "kubernetes.io/gce-pd"},
                      PluginCase{"AwsEbs", "ebs.csi.aws.com", "kubernetes.io/aws-ebs"},
                      PluginCase{"Cinder", "cinder.csi.openstack.org", "kubernetes.io/cinder"},
                      PluginCase{"AzureDisk", "disk.csi.azure.com", "kubernetes.io/azure-disk"},
                      PluginCase{"AzureFile", "file.csi.azure.com", "kubernetes.io/azure-file"},
                      PluginCase{"Vsphere", "csi.vsphere.vmware.com",
                                 "kubernetes.io/vsphere-volume"},
                      PluginCase{"Portworx", "pxd.portworx.com", "kubernetes.io/portworx-volume"},
                      PluginCase{"InTreeNameIsNotADriver", "kubernetes.io/gce-pd", std::nullopt},
                      PluginCase{"RemovedCephRbd", "rbd.csi.ceph.com", std::nullopt},
                      PluginCase{"ExactCase", "PD.csi.storage.gke.io", std::nullopt}),
    [](const auto& info) { return info.param.name; });

struct HandleRepairCase {
  std::string name;
  std::string driver;
  std::string want;        // the repaired handle, if no error
  std::string want_error;  // empty: success
};

class RepairVolumeHandleTest : public ::testing::TestWithParam<HandleRepairCase> {};

TEST_P(RepairVolumeHandleTest, DispatchesOnTheCsiDriver) {
  const HandleRepairCase& c = GetParam();
  auto repaired = RepairVolumeHandle(c.driver, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/baz",
                                     "projects/bing/zones/bada/instances/boom");
  if (!c.want_error.empty()) {
    ASSERT_FALSE(repaired.ok()) << *repaired;
    EXPECT_EQ(repaired.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(repaired.ok()) << repaired.error().message;
  EXPECT_EQ(*repaired, c.want);
}

const std::string kUnrepaired = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/baz";

// §3: only GCE PD rewrites the handle; unknown drivers fail.
INSTANTIATE_TEST_SUITE_P(
    RepairVolumeHandle, RepairVolumeHandleTest,
    ::testing::Values(
        HandleRepairCase{"GcePdRewrites", "pd.csi.storage.gke.io",
                         "projects/bing/zones/bada/disks/baz", ""},
        HandleRepairCase{"AwsEbsKeeps", "ebs.csi.aws.com", kUnrepaired, ""},
        HandleRepairCase{"CinderKeeps", "cinder.csi.openstack.org", kUnrepaired, ""},
        HandleRepairCase{"AzureDiskKeeps", "disk.csi.azure.com", kUnrepaired, ""},
        HandleRepairCase{"AzureFileKeeps", "file.csi.azure.com", kUnrepaired, ""},
        HandleRepairCase{"VsphereKeeps", "csi.vsphere.vmware.com", kUnrepaired, ""},
        HandleRepairCase{"PortworxKeeps", "pxd.portworx.com", kUnrepaired, ""},
        HandleRepairCase{"UnknownDriverFails", "hostpath.csi.k8s.io", "",
                         "could not find In-Tree driver name for CSI plugin hostpath.csi.k8s.io"},
        HandleRepairCase{"InTreePluginNameFails", "kubernetes.io/gce-pd", "",
                         "could not find In-Tree driver name for CSI plugin kubernetes.io/gce-pd"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace migration
