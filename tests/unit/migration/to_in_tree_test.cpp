// TranslateCsiPvToInTree: the CSI -> in-tree tests of csi-translation-lib's
// plugins/*_test.go and TestTranslationStability, per plugin, plus the
// round trips back through TranslateInTreePvToCsi (docs/migration.md §8.2).
#include "migration/to_in_tree.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "expect_result.h"
#include "migration/azure_disk.h"
#include "migration/go_text.h"
#include "migration/topology.h"
#include "migration/translate.h"
#include "test_pvs.h"

// A named namespace: the test files of a target share translation units.
namespace migration::to_in_tree_test {
namespace {

using ::migration::testing::ExpectValueOrError;
using ::migration::testing::In;
using ::migration::testing::Na;
using ::migration::testing::PvWith;
using ::migration::testing::ResultCase;
using Terms = std::vector<kube::NodeSelectorTerm>;

const std::string kGaZone(kGaZoneLabel);
const std::string kGaRegion(kGaRegionLabel);
const std::string kDiskUri =
    "/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/disks/name";
constexpr char kVmdk[] =
    "[vsanDatastore] 6785a85e-268e-6352-a2e8-02008b7afadd/"
    "kubernetes-dynamic-pvc-68734c9f-a679-42e6-a694-39632c51e31f.vmdk";

kube::CSIPersistentVolumeSource Csi(std::string driver, std::string handle,
                                    kube::StringMap attributes = {}) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::move(driver);
  csi.volume_handle = std::move(handle);
  csi.volume_attributes = std::move(attributes);
  return csi;
}

kube::CSIPersistentVolumeSource WithFsTypeReadOnly(kube::CSIPersistentVolumeSource csi,
                                                   std::string fs_type) {
  csi.fs_type = std::move(fs_type);
  csi.read_only = true;
  return csi;
}

kube::CSIPersistentVolumeSource WithStageSecret(kube::CSIPersistentVolumeSource csi,
                                                std::string name, std::string namespace_) {
  csi.node_stage_secret_ref = kube::SecretReference{std::move(name), std::move(namespace_)};
  return csi;
}

// One translation of a PV, checked against the whole result or the error.
struct InTreeCase {
  std::string name;
  kube::PersistentVolume pv;
  kube::PersistentVolumeSource want_source;
  Terms want_affinity = {};
  kube::StringMap want_labels = {};
  kube::StringMap want_annotations = {};
  std::string want_error = "";  // empty: success
};

// A failing row prints as its name.
void PrintTo(const InTreeCase& c, std::ostream* os) { *os << c.name; }

class TranslateCsiPvToInTreeTest : public ::testing::TestWithParam<InTreeCase> {};

TEST_P(TranslateCsiPvToInTreeTest, WritesTheInTreeSource) {
  const InTreeCase& c = GetParam();
  auto translated = TranslateCsiPvToInTree(c.pv);
  if (!c.want_error.empty()) {
    ASSERT_FALSE(translated.ok());
    EXPECT_EQ(translated.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(translated->spec.source, c.want_source);
  EXPECT_EQ(translated->spec.node_affinity, c.want_affinity);
  EXPECT_EQ(translated->metadata.labels, c.want_labels);
  EXPECT_EQ(translated->metadata.annotations, c.want_annotations);
  // Nothing else changes.
  kube::PersistentVolume rest = *translated;
  rest.spec.source = c.pv.spec.source;
  rest.spec.node_affinity = c.pv.spec.node_affinity;
  rest.metadata.labels = c.pv.metadata.labels;
  rest.metadata.annotations = c.pv.metadata.annotations;
  EXPECT_EQ(rest, c.pv);
}

INSTANTIATE_TEST_SUITE_P(
    Dispatch, TranslateCsiPvToInTreeTest,
    ::testing::Values(
        InTreeCase{"InTreeSourceFails",
                   PvWith(kube::GCEPersistentDiskVolumeSource{"pd", "", 0, false}),
                   {},
                   {},
                   {},
                   {},
                   "CSI persistent volume was nil"},
        InTreeCase{"NoSourceFails", PvWith({}), {}, {}, {}, {}, "CSI persistent volume was nil"},
        InTreeCase{"OtherDriverFails",
                   PvWith(Csi("example.com/csi", "h")),
                   {},
                   {},
                   {},
                   {},
                   "could not find in-tree plugin translation logic for example.com/csi"},
        InTreeCase{"DriverNameMatchesExactly",
                   PvWith(Csi("PD.csi.storage.gke.io", "h")),
                   {},
                   {},
                   {},
                   {},
                   "could not find in-tree plugin translation logic for PD.csi.storage.gke.io"}),
    [](const auto& info) { return info.param.name; });

constexpr char kGce[] = "pd.csi.storage.gke.io";
const std::string kZonalHandle = "projects/my-project/zones/us-east1-a/disks/pd";

INSTANTIATE_TEST_SUITE_P(
    GcePd, TranslateCsiPvToInTreeTest,
    ::testing::Values(
        InTreeCase{
            "HandleFsTypeReadOnlyAndPartition",
            PvWith(WithFsTypeReadOnly(Csi(kGce, kZonalHandle, {{"partition", "3"}}), "ext4")),
            kube::GCEPersistentDiskVolumeSource{"pd", "ext4", 3, true}},
        InTreeCase{"EmptyPartitionIsZero", PvWith(Csi(kGce, kZonalHandle, {{"partition", ""}})),
                   kube::GCEPersistentDiskVolumeSource{"pd", "", 0, false}},
        InTreeCase{"PartitionIsNarrowedToInt32",
                   PvWith(Csi(kGce, kZonalHandle, {{"partition", "4294967297"}})),
                   kube::GCEPersistentDiskVolumeSource{"pd", "", 1, false}},
        InTreeCase{"ZoneTopologyGetsRegionAndLabels",
                   PvWith(Csi(kGce, kZonalHandle), {}, Na("topology.gke.io/zone", {"us-east1-a"})),
                   kube::GCEPersistentDiskVolumeSource{"pd", "", 0, false},
                   Terms{{{In(kGaZone, {"us-east1-a"}), In(kGaRegion, {"us-east1"})}}},
                   {{kGaZone, "us-east1-a"}, {kGaRegion, "us-east1"}}},
        InTreeCase{"ShortHandleFails",
                   PvWith(Csi(kGce, "projects/p/zones/z/disks")),
                   {},
                   {},
                   {},
                   {},
                   "failed to get id components.Got: 5, wanted 6 components or more. "},
        InTreeCase{"BadPartitionFails",
                   PvWith(Csi(kGce, kZonalHandle, {{"partition", "x"}})),
                   {},
                   {},
                   {},
                   {},
                   R"(Failed to convert partition x to integer: strconv.Atoi: parsing "x": )"
                   "invalid syntax"},
        InTreeCase{"HugePartitionFails",
                   PvWith(Csi(kGce, kZonalHandle, {{"partition", "9223372036854775808"}})),
                   {},
                   {},
                   {},
                   {},
                   "Failed to convert partition 9223372036854775808 to integer: strconv.Atoi: "
                   R"(parsing "9223372036854775808": value out of range)"},
        InTreeCase{"UnparsableZoneFails",
                   PvWith(Csi(kGce, kZonalHandle), {}, Na("topology.gke.io/zone", {"zone1"})),
                   {},
                   {},
                   {},
                   {},
                   "failed to translate topology. PV:pv. Error:Failed to handle region topology. "
                   "error: zone in unexpected format, expected: {locale}-{region}-{zone}, got: "
                   "zone1"}),
    [](const auto& info) { return info.param.name; });

constexpr char kEbs[] = "ebs.csi.aws.com";

INSTANTIATE_TEST_SUITE_P(
    AwsEbs, TranslateCsiPvToInTreeTest,
    ::testing::Values(
        InTreeCase{"HandleFsTypeReadOnlyAndPartition",
                   PvWith(WithFsTypeReadOnly(Csi(kEbs, "vol-1", {{"partition", "1"}}), "ext3")),
                   kube::AWSElasticBlockStoreVolumeSource{"vol-1", "ext3", 1, true}},
        InTreeCase{"AbsentPartitionIsZero", PvWith(Csi(kEbs, "vol-1")),
                   kube::AWSElasticBlockStoreVolumeSource{"vol-1", "", 0, false}},
        InTreeCase{"NegativePartitionIsKept", PvWith(Csi(kEbs, "vol-1", {{"partition", "-2"}})),
                   kube::AWSElasticBlockStoreVolumeSource{"vol-1", "", -2, false}},
        InTreeCase{
            "ZoneTopologyGetsRegionAndLabels",
            PvWith(Csi(kEbs, "vol-1"), {}, Na("topology.ebs.csi.aws.com/zone", {"us-west-2a"})),
            kube::AWSElasticBlockStoreVolumeSource{"vol-1", "", 0, false},
            Terms{{{In(kGaZone, {"us-west-2a"}), In(kGaRegion, {"us-west-2"})}}},
            {{kGaZone, "us-west-2a"}, {kGaRegion, "us-west-2"}}},
        InTreeCase{"EmptyPartitionFails",
                   PvWith(Csi(kEbs, "vol-1", {{"partition", ""}})),
                   {},
                   {},
                   {},
                   {},
                   R"(failed to convert partition  to integer: strconv.Atoi: parsing "": )"
                   "invalid syntax"},
        InTreeCase{"UnknownZoneFormatFails",
                   PvWith(Csi(kEbs, "vol-1"), {}, Na("topology.ebs.csi.aws.com/zone", {"us-west"})),
                   {},
                   {},
                   {},
                   {},
                   "failed to translate topology. PV:pv. Error:Failed to handle region topology. "
                   "error: Unexpected zone format: us-west is not a valid AWS zone"}),
    [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    Cinder, TranslateCsiPvToInTreeTest,
    ::testing::Values(InTreeCase{"HandleFsTypeReadOnly",
                                 PvWith(WithFsTypeReadOnly(Csi("cinder.csi.openstack.org", "id"),
                                                           "ext4")),
                                 kube::CinderPersistentVolumeSource{"id", "ext4", true}},
                      // TestTranslateTopologyFromCSIToInTree's "cinder translation": no region.
                      InTreeCase{"ZoneTopologyWithoutRegion",
                                 PvWith(Csi("cinder.csi.openstack.org", "id"), {},
                                        Na("topology.cinder.csi.openstack.org/zone", {"nova"})),
                                 kube::CinderPersistentVolumeSource{"id", "", false},
                                 Na(kGaZone, {"nova"}),
                                 {{kGaZone, "nova"}}}),
    [](const auto& info) { return info.param.name; });

kube::AzureDiskVolumeSource AzureDisk(std::string caching_mode, std::string fs_type,
                                      bool read_only) {
  kube::AzureDiskVolumeSource source;
  source.disk_name = "name";
  source.disk_uri = kDiskUri;
  if (!caching_mode.empty()) source.caching_mode = std::move(caching_mode);
  source.fs_type = std::move(fs_type);
  source.kind = std::string("Managed");
  source.read_only = read_only;
  return source;
}

constexpr char kAzureDisk[] = "disk.csi.azure.com";

// The first four rows are TestTranslateTranslateCSIPVToInTree.
INSTANTIATE_TEST_SUITE_P(
    AzureDisk, TranslateCsiPvToInTreeTest,
    ::testing::
        Values(
            InTreeCase{
                "LowerCaseAttributes",
                PvWith(WithFsTypeReadOnly(
                    Csi(kAzureDisk, kDiskUri,
                        {{"cachingmode", "ReadOnly"}, {"fstype", "fstype"}, {"kind", "managed"}}),
                    "fstype")),
                AzureDisk("ReadOnly", "fstype", true)},
            InTreeCase{
                "NoneCachingMode",
                PvWith(WithFsTypeReadOnly(
                    Csi(kAzureDisk, kDiskUri,
                        {{"cachingMode", "None"}, {"fsType", "fstype"}, {"kind", "managed"}}),
                    "fstype")),
                AzureDisk("None", "fstype", true)},
            InTreeCase{
                "ReadWriteCachingMode",
                PvWith(WithFsTypeReadOnly(
                    Csi(kAzureDisk, kDiskUri,
                        {{"cachingMode", "ReadWrite"}, {"fsType", "fstype"}, {"kind", "managed"}}),
                    "fstype")),
                AzureDisk("ReadWrite", "fstype", true)},
            InTreeCase{
                "FsTypeAttributeOverridesSource",
                PvWith(WithFsTypeReadOnly(Csi(kAzureDisk, kDiskUri, {{"fsType", "xfs"}}), "ext4")),
                AzureDisk("", "xfs", true)},
            InTreeCase{"EmptyAttributesAreSkipped",
                       PvWith(Csi(kAzureDisk, kDiskUri, {{"cachingMode", ""}, {"fstype", ""}})),
                       AzureDisk("", "", false)},
            InTreeCase{"UnmanagedDiskUrl", PvWith(Csi(kAzureDisk, "https://acct.blob/vhds/d.vhd")),
                       [] {
                         kube::AzureDiskVolumeSource source = AzureDisk("", "", false);
                         source.disk_name = "d.vhd";
                         source.disk_uri = "https://acct.blob/vhds/d.vhd";
                         return source;
                       }()},
            InTreeCase{"TopologyIsKept",
                       PvWith(Csi(kAzureDisk, kDiskUri), {},
                              Na("topology.disk.csi.azure.com/zone", {"eastus-1"})),
                       AzureDisk("", "", false),
                       Na("topology.disk.csi.azure.com/zone", {"eastus-1"})},
            InTreeCase{"HandleWithoutDiskNameFails",
                       PvWith(Csi(kAzureDisk, "/subscriptions/23/disks/x")),
                       {},
                       {},
                       {},
                       {},
                       "could not get disk name from /subscriptions/23/disks/x, correct format: "
                       ".*/subscriptions/(?:.*)/resourceGroups/(?:.*)/providers/"
                       "Microsoft.Compute/disks/(.+)"}),
    [](const auto& info) { return info.param.name; });

// {disk URI, disk name}
using DiskNameCase = ResultCase<std::string, std::string>;

class AzureDiskNameOfTest : public ::testing::TestWithParam<DiskNameCase> {};

TEST_P(AzureDiskNameOfTest, ParsesTheUri) {
  const DiskNameCase& c = GetParam();
  ExpectValueOrError(AzureDiskNameOf(c.input), c.want, c.want_error);
}

// TestGetDiskName and TestIsManagedDisk.
INSTANTIATE_TEST_SUITE_P(
    TestGetDiskName, AzureDiskNameOfTest,
    ::testing::Values(
        DiskNameCase{"ManagedResourceId",
                     "testurl/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/"
                     "disks/name",
                     "name", ""},
        DiskNameCase{"ManagedWithoutResourceGroupFails",
                     "testurl/subscriptions/23/providers/Microsoft.Compute/disks/name", "",
                     "could not get disk name from "
                     "testurl/subscriptions/23/providers/Microsoft.Compute/disks/name, correct "
                     "format: .*/subscriptions/(?:.*)/resourceGroups/(?:.*)/providers/"
                     "Microsoft.Compute/disks/(.+)"},
        DiskNameCase{"UnmanagedUrl", "http://test.com/vhds/name", "name", ""},
        DiskNameCase{"UnmanagedUrlWithoutVhdsFails", "http://test.io/name", "",
                     "could not get disk name from http://test.io/name, correct format: "
                     "http(?:.*)://(?:.*)/vhds/(.+)"},
        DiskNameCase{"UpperCaseHttpIsUnmanaged", "HTTP://test.com/vhds/name", "",
                     "could not get disk name from HTTP://test.com/vhds/name, correct format: "
                     "http(?:.*)://(?:.*)/vhds/(.+)"},
        DiskNameCase{"BareHttpIsManaged", "http", "",
                     "could not get disk name from http, correct format: "
                     ".*/subscriptions/(?:.*)/resourceGroups/(?:.*)/providers/"
                     "Microsoft.Compute/disks/(.+)"}),
    [](const auto& info) { return info.param.name; });

constexpr char kAzureFile[] = "file.csi.azure.com";
constexpr char kResourceGroup[] = "kubernetes.io/azure-file-resource-group";

kube::AzureFilePersistentVolumeSource AzureFile(std::string secret_name,
                                                std::string secret_namespace,
                                                std::string share_name) {
  return {std::move(secret_name), std::move(secret_namespace), std::move(share_name), true};
}

kube::PersistentVolume AzureFilePv(kube::CSIPersistentVolumeSource csi) {
  csi.read_only = true;
  kube::PersistentVolume pv = PvWith(std::move(csi));
  pv.metadata.name = "file.csi.azure.com-sharename";
  return pv;
}

// The rows of TestTranslateCSIPVToInTree (azure_file_test.go).
INSTANTIATE_TEST_SUITE_P(
    AzureFile, TranslateCsiPvToInTreeTest,
    ::testing::Values(
        InTreeCase{"StageSecretWithoutHandle",
                   AzureFilePv(WithStageSecret(Csi(kAzureFile, "", {{"shareName", "sharename"}}),
                                               "ut", "secretnamespace")),
                   AzureFile("ut", "secretnamespace", "sharename")},
        InTreeCase{"HandleWithoutHashesFails",
                   AzureFilePv(Csi(kAzureFile, "sharename", {{"shareName", "sharename"}})),
                   {},
                   {},
                   {},
                   {},
                   R"(error parsing volume id: "sharename", should at least contain two #)"},
        InTreeCase{"SecretFromHandleAndResourceGroupAnnotation",
                   AzureFilePv(Csi(kAzureFile, "rg#st#pvc-file-dynamic#diskname.vhd",
                                   {{"shareName", "sharename"}})),
                   AzureFile("azure-storage-account-st-secret", "default", "sharename"),
                   {},
                   {},
                   {{kResourceGroup, "rg"}}},
        InTreeCase{"EverythingFromAttributes",
                   AzureFilePv(Csi(kAzureFile, "rg#st#pvc-file-dynamic#diskname.vhd",
                                   {{"shareName", "sharename"},
                                    {"secretName", "secretname"},
                                    {"secretNamespace", "secretnamespace"}})),
                   AzureFile("secretname", "secretnamespace", "sharename")},
        InTreeCase{
            "StageSecretAndShareAttribute",
            AzureFilePv(WithStageSecret(Csi(kAzureFile, "rg#st#pvc-file-dynamic#diskname.vhd",
                                            {{"shareName", "sharename"}}),
                                        "secretname", "secretnamespace")),
            AzureFile("secretname", "secretnamespace", "sharename")},
        InTreeCase{"EverythingFromHandle",
                   AzureFilePv(Csi(kAzureFile, "rg#st#pvc-file-dynamic#diskname.vhd")),
                   AzureFile("azure-storage-account-st-secret", "default", "pvc-file-dynamic"),
                   {},
                   {},
                   {{kResourceGroup, "rg"}}},
        // Beyond upstream's rows.
        InTreeCase{"EmptyResourceGroupNoAnnotation", AzureFilePv(Csi(kAzureFile, "#st#share")),
                   AzureFile("azure-storage-account-st-secret", "default", "share")},
        InTreeCase{
            "StageSecretOverridesSecretAttributes",
            AzureFilePv(WithStageSecret(
                Csi(kAzureFile, "h",
                    {{"sharename", "s"}, {"secretname", "attr"}, {"secretnamespace", "attr-ns"}}),
                "stage", "")),
            AzureFile("stage", "", "s")},
        InTreeCase{"UnnamedStageSecretIsIgnored",
                   AzureFilePv(WithStageSecret(Csi(kAzureFile, "rg#st#share"), "", "ns")),
                   AzureFile("azure-storage-account-st-secret", "default", "share"),
                   {},
                   {},
                   {{kResourceGroup, "rg"}}}),
    [](const auto& info) { return info.param.name; });

constexpr char kVsphere[] = "csi.vsphere.vmware.com";

kube::VsphereVirtualDiskVolumeSource Vsphere(std::string path) {
  return {std::move(path), "ext4", ""};
}

kube::CSIPersistentVolumeSource VsphereCsi() {
  kube::CSIPersistentVolumeSource csi =
      Csi(kVsphere, "e4073a6d-642e-4dff-8f4a-b4e3a47c4bbd",
          {{"storagepolicyname", "vSAN Default Storage Policy"}, {"initialvolumefilepath", kVmdk}});
  csi.fs_type = "ext4";
  return csi;
}

// The rows of TestTranslateVSphereCSIPVToInTree.
INSTANTIATE_TEST_SUITE_P(
    Vsphere, TranslateCsiPvToInTreeTest,
    ::testing::Values(InTreeCase{"PathFromAttributeWithoutPolicy", PvWith(VsphereCsi()),
                                 Vsphere(kVmdk)},
                      InTreeCase{"ZoneAndRegionBecomeGaKeysAndLabels",
                                 PvWith(VsphereCsi(), {},
                                        Terms{{{In("topology.csi.vmware.com/zone", {"z1"}),
                                                In("topology.csi.vmware.com/region", {"r1"})}}}),
                                 Vsphere(kVmdk),
                                 Terms{{{In(kGaZone, {"z1"}), In(kGaRegion, {"r1"})}}},
                                 {{kGaZone, "z1"}, {kGaRegion, "r1"}}},
                      InTreeCase{"NoPathAttributeGivesEmptyPath", PvWith([] {
                                   kube::CSIPersistentVolumeSource csi = VsphereCsi();
                                   csi.volume_attributes = {};
                                   return csi;
                                 }()),
                                 Vsphere("")}),
    [](const auto& info) { return info.param.name; });

// The "normal" row of TestTranslatePortworxCSIPvToInTree.
INSTANTIATE_TEST_SUITE_P(Portworx, TranslateCsiPvToInTreeTest,
                         ::testing::Values(InTreeCase{
                             "HandleAndFsType", PvWith([] {
                               kube::CSIPersistentVolumeSource csi =
                                   Csi("pxd.portworx.com", "ID1111");
                               csi.fs_type = "type";
                               return csi;
                             }()),
                             kube::PortworxVolumeSource{"ID1111", "type"}}),
                         [](const auto& info) { return info.param.name; });

// CSI -> in-tree -> CSI, with the existing in-tree -> CSI translation.
kube::CSIPersistentVolumeSource RoundTrip(const kube::PersistentVolume& pv) {
  auto in_tree = TranslateCsiPvToInTree(pv);
  EXPECT_TRUE(in_tree.ok()) << in_tree.error().message;
  if (!in_tree.ok()) return {};
  auto csi = TranslateInTreePvToCsi(*in_tree);
  EXPECT_TRUE(csi.ok()) << csi.error().message;
  if (!csi.ok()) return {};
  return std::get<kube::CSIPersistentVolumeSource>(csi->spec.source);
}

TEST(RoundTripTest, GcePdZonalHandleComesBackOnceRepaired) {
  kube::PersistentVolume pv = PvWith(WithFsTypeReadOnly(Csi(kGce, kZonalHandle), "ext4"), {},
                                     Na("topology.gke.io/zone", {"us-east1-a"}));
  kube::CSIPersistentVolumeSource back = RoundTrip(pv);
  // The in-tree source has no project: it comes back from the node's ID.
  EXPECT_EQ(back.volume_handle, "projects/UNSPECIFIED/zones/us-east1-a/disks/pd");
  auto repaired = RepairVolumeHandle(kGce, back.volume_handle,
                                     "projects/my-project/zones/us-east1-a/instances/node");
  ASSERT_TRUE(repaired.ok()) << repaired.error().message;
  EXPECT_EQ(*repaired, kZonalHandle);
  EXPECT_EQ(back.fs_type, "ext4");
  EXPECT_TRUE(back.read_only);
}

TEST(RoundTripTest, GcePdRegionalHandleComesBack) {
  const std::string handle = "projects/UNSPECIFIED/regions/us-east1/disks/pd";
  kube::PersistentVolume pv =
      PvWith(Csi(kGce, handle), {}, Na("topology.gke.io/zone", {"us-east1-a", "us-east1-b"}));
  EXPECT_EQ(RoundTrip(pv).volume_handle, handle);
}

TEST(RoundTripTest, AwsEbsSourceComesBack) {
  kube::PersistentVolume pv =
      PvWith(WithFsTypeReadOnly(Csi(kEbs, "vol-02399794d890f9375", {{"partition", "1"}}), "xfs"),
             {}, Na("topology.ebs.csi.aws.com/zone", {"us-west-2a"}));
  EXPECT_EQ(RoundTrip(pv), std::get<kube::CSIPersistentVolumeSource>(pv.spec.source));
}

TEST(RoundTripTest, CinderSourceComesBack) {
  kube::PersistentVolume pv =
      PvWith(WithFsTypeReadOnly(Csi("cinder.csi.openstack.org", "id"), "ext4"), {},
             Na("topology.cinder.csi.openstack.org/zone", {"nova"}));
  EXPECT_EQ(RoundTrip(pv), std::get<kube::CSIPersistentVolumeSource>(pv.spec.source));
}

TEST(RoundTripTest, AzureDiskSourceComesBack) {
  kube::PersistentVolume pv = PvWith(WithFsTypeReadOnly(
      Csi(kAzureDisk, kDiskUri,
          {{"cachingmode", "ReadOnly"}, {"fstype", "ext4"}, {"kind", "Managed"}}),
      "ext4"));
  EXPECT_EQ(RoundTrip(pv), std::get<kube::CSIPersistentVolumeSource>(pv.spec.source));
}

TEST(RoundTripTest, AzureFileHandleComesBackWhenItNamesThePvAndDefaultNamespace) {
  kube::PersistentVolume pv = PvWith(Csi(kAzureFile, "rg#acct#share#pv#default"));
  kube::CSIPersistentVolumeSource back = RoundTrip(pv);
  EXPECT_EQ(back.volume_handle, "rg#acct#share#pv#default");
  EXPECT_EQ(back.volume_attributes, (kube::StringMap{{"sharename", "share"}}));
}

TEST(RoundTripTest, VsphereHandleBecomesTheVolumePath) {
  // The in-tree source keeps only the path, which then serves as the handle.
  EXPECT_EQ(RoundTrip(PvWith(VsphereCsi())).volume_handle, kVmdk);
}

TEST(RoundTripTest, PortworxSourceComesBack) {
  kube::PersistentVolume pv = PvWith(Csi("pxd.portworx.com", "ID1111"));
  EXPECT_EQ(RoundTrip(pv), std::get<kube::CSIPersistentVolumeSource>(pv.spec.source));
}

// TestTranslationStability: in-tree -> CSI -> in-tree gives the PV back.
TEST(RoundTripTest, InTreeGcePdAndEbsPvsComeBack) {
  for (const kube::PersistentVolume& pv :
       {PvWith(kube::GCEPersistentDiskVolumeSource{"test-disk", "ext4", 0, false}),
        PvWith(kube::AWSElasticBlockStoreVolumeSource{"vol01", "ext3", 1, true})}) {
    auto csi = TranslateInTreePvToCsi(pv);
    ASSERT_TRUE(csi.ok()) << csi.error().message;
    auto back = TranslateCsiPvToInTree(*csi);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, pv);
  }
}

// {text, number}
using AtoiCase = ResultCase<std::string, int32_t>;

class GoAtoiInt32Test : public ::testing::TestWithParam<AtoiCase> {};

TEST_P(GoAtoiInt32Test, ParsesAsGoDoes) {
  const AtoiCase& c = GetParam();
  ExpectValueOrError(GoAtoiInt32(c.input), c.want, c.want_error);
}

INSTANTIATE_TEST_SUITE_P(
    Partitions, GoAtoiInt32Test,
    ::testing::Values(
        AtoiCase{"Digits", "42", 42, ""}, AtoiCase{"PlusSign", "+7", 7, ""},
        AtoiCase{"LeadingZeros", "007", 7, ""}, AtoiCase{"Negative", "-3", -3, ""},
        AtoiCase{"WrapsModTwoToThe32", "2147483648", -2147483648, ""},
        AtoiCase{"Int64Min", "-9223372036854775808", 0, ""},
        AtoiCase{"Empty", "", 0, R"(strconv.Atoi: parsing "": invalid syntax)"},
        AtoiCase{"SignOnly", "-", 0, R"(strconv.Atoi: parsing "-": invalid syntax)"},
        AtoiCase{"Space", " 1", 0, R"(strconv.Atoi: parsing " 1": invalid syntax)"},
        AtoiCase{"Underscore", "1_0", 0, R"(strconv.Atoi: parsing "1_0": invalid syntax)"},
        AtoiCase{"AboveInt64", "9223372036854775808", 0,
                 R"(strconv.Atoi: parsing "9223372036854775808": value out of range)"},
        AtoiCase{"Uint64OverflowBeforeBadByte", "99999999999999999999x", 0,
                 R"(strconv.Atoi: parsing "99999999999999999999x": value out of range)"},
        AtoiCase{"BadByteBeforeInt64Check", "9300000000000000000x", 0,
                 R"(strconv.Atoi: parsing "9300000000000000000x": invalid syntax)"},
        AtoiCase{"QuotedAsGo", "a\"\t\x01", 0,
                 R"(strconv.Atoi: parsing "a\"\t\x01": invalid syntax)"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace migration::to_in_tree_test
