// TranslateInTreeStorageClassToCsi: the StorageClass tests of
// csi-translation-lib's plugins/*_test.go, and the rules of
// docs/migration.md §8.1 they leave out.
#include "migration/storage_class.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

// A named namespace: the test files of a target share translation units.
namespace migration::storage_class_test {
namespace {

using Terms = std::vector<kube::TopologySelectorTerm>;

constexpr char kGce[] = "kubernetes.io/gce-pd";
constexpr char kEbs[] = "kubernetes.io/aws-ebs";
constexpr char kCinder[] = "kubernetes.io/cinder";
constexpr char kAzureDisk[] = "kubernetes.io/azure-disk";
constexpr char kAzureFile[] = "kubernetes.io/azure-file";
constexpr char kVsphere[] = "kubernetes.io/vsphere-volume";
constexpr char kPortworx[] = "kubernetes.io/portworx-volume";

constexpr char kGaZone[] = "topology.kubernetes.io/zone";
constexpr char kBetaZone[] = "failure-domain.beta.kubernetes.io/zone";
constexpr char kGkeZone[] = "topology.gke.io/zone";
constexpr char kEbsZone[] = "topology.ebs.csi.aws.com/zone";
constexpr char kCinderZone[] = "topology.cinder.csi.openstack.org/zone";
constexpr char kAzureZone[] = "topology.disk.csi.azure.com/zone";
constexpr char kVsphereZone[] = "topology.csi.vmware.com/zone";
constexpr char kBothSet[] =
    "cannot simultaneously set allowed topologies and zone/zones parameters";

// generateToplogySelectors of upstream: one term, one requirement.
Terms Topology(std::string key, std::vector<std::string> values) {
  return {kube::TopologySelectorTerm{{{std::move(key), std::move(values)}}}};
}

struct StorageClassCase {
  std::string name;
  std::string plugin;
  kube::StringMap parameters;
  Terms allowed_topologies;
  kube::StringMap want_parameters;
  Terms want_topologies;
  std::string want_error = "";  // empty: success
};

// A failing row prints as its name.
void PrintTo(const StorageClassCase& c, std::ostream* os) { *os << c.name; }

class TranslateStorageClassTest : public ::testing::TestWithParam<StorageClassCase> {};

TEST_P(TranslateStorageClassTest, TranslatesParametersAndTopology) {
  const StorageClassCase& c = GetParam();
  kube::StorageClass in_tree;
  in_tree.metadata.name = "sc";
  in_tree.provisioner = c.plugin;
  in_tree.parameters = c.parameters;
  in_tree.allowed_topologies = c.allowed_topologies;
  in_tree.reclaim_policy = "Retain";
  in_tree.volume_binding_mode = "WaitForFirstConsumer";
  auto translated = TranslateInTreeStorageClassToCsi(c.plugin, in_tree);
  if (!c.want_error.empty()) {
    ASSERT_FALSE(translated.ok());
    EXPECT_EQ(translated.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  EXPECT_EQ(translated->parameters, c.want_parameters);
  EXPECT_EQ(translated->allowed_topologies, c.want_topologies);
  // Every other field is kept; only Portworx names its driver.
  kube::StorageClass rest = *translated;
  rest.parameters = in_tree.parameters;
  rest.allowed_topologies = in_tree.allowed_topologies;
  if (c.plugin == kPortworx) {
    EXPECT_EQ(rest.provisioner, "pxd.portworx.com");
    rest.provisioner = in_tree.provisioner;
  }
  EXPECT_EQ(rest, in_tree);
}

INSTANTIATE_TEST_SUITE_P(
    TestTranslatePDInTreeStorageClassToCSI, TranslateStorageClassTest,
    ::testing::Values(
        StorageClassCase{"OtherParameterIsKept", kGce, {{"foo", "bar"}}, {}, {{"foo", "bar"}}, {}},
        StorageClassCase{"FsTypeIsPrefixed",
                         kGce,
                         {{"fstype", "myfs"}},
                         {},
                         {{"csi.storage.k8s.io/fstype", "myfs"}},
                         {}},
        StorageClassCase{"NoParameters", kGce, {}, {}, {}, {}},
        StorageClassCase{
            "ZoneBecomesTopology", kGce, {{"zone", "foo"}}, {}, {}, Topology(kGkeZone, {"foo"})},
        StorageClassCase{"ZonesBecomeTopology",
                         kGce,
                         {{"zones", "foo,bar,baz"}},
                         {},
                         {},
                         Topology(kGkeZone, {"foo", "bar", "baz"})},
        StorageClassCase{"CsiTopologyIsKept",
                         kGce,
                         {},
                         Topology(kGkeZone, {"foo"}),
                         {},
                         Topology(kGkeZone, {"foo"})},
        StorageClassCase{"BetaZoneTopologyIsRenamed",
                         kGce,
                         {},
                         Topology(kBetaZone, {"foo"}),
                         {},
                         Topology(kGkeZone, {"foo"})},
        StorageClassCase{"ZoneAndTopologyFail",
                         kGce,
                         {{"zone", "foo"}},
                         Topology(kGkeZone, {"foo"}),
                         {},
                         {},
                         kBothSet},
        // Beyond upstream's rows: keys in any case, kept keys as written.
        StorageClassCase{"KeysMatchInAnyCase",
                         kGce,
                         {{"FsType", "ext4"}, {"ZONES", "a,b"}},
                         {},
                         {{"csi.storage.k8s.io/fstype", "ext4"}},
                         Topology(kGkeZone, {"a", "b"})},
        StorageClassCase{
            "KeptKeyKeepsItsCase", kGce, {{"Type", "pd-ssd"}}, {}, {{"Type", "pd-ssd"}}, {}},
        StorageClassCase{"GaZoneTopologyIsRenamedOthersKept",
                         kGce,
                         {},
                         Terms{{{{kGaZone, {"a"}}, {"rack", {"r1"}}}}},
                         {},
                         Terms{{{{kGkeZone, {"a"}}, {"rack", {"r1"}}}}}},
        StorageClassCase{"EmptyZoneStillConflicts",
                         kGce,
                         {{"zone", ""}},
                         Topology(kGaZone, {"a"}),
                         {},
                         {},
                         kBothSet}),
    [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    TestTranslateEBSInTreeStorageClassToCSI, TranslateStorageClassTest,
    ::testing::Values(
        StorageClassCase{"OtherParameterIsKept", kEbs, {{"foo", "bar"}}, {}, {{"foo", "bar"}}, {}},
        StorageClassCase{"NoParameters", kEbs, {}, {}, {}, {}},
        StorageClassCase{"FsTypeIsPrefixed",
                         kEbs,
                         {{"fstype", "ext3"}},
                         {},
                         {{"csi.storage.k8s.io/fstype", "ext3"}},
                         {}},
        StorageClassCase{"IopsPerGbAllowsIncrease",
                         kEbs,
                         {{"iopsPerGB", "100"}},
                         {},
                         {{"iopsPerGB", "100"}, {"allowautoiopspergbincrease", "true"}},
                         {}},
        StorageClassCase{"ZonesBecomeTopology",
                         kEbs,
                         {{"zones", "us-east-1a,us-east-1b"}},
                         {},
                         {},
                         Topology(kEbsZone, {"us-east-1a", "us-east-1b"})},
        StorageClassCase{"GaZoneTopologyIsRenamed",
                         kEbs,
                         {},
                         Topology(kGaZone, {"us-east-1a"}),
                         {},
                         Topology(kEbsZone, {"us-east-1a"})},
        StorageClassCase{"ZoneAndTopologyFail",
                         kEbs,
                         {{"zone", "us-east-1a"}},
                         Topology(kGaZone, {"us-east-1a"}),
                         {},
                         {},
                         kBothSet}),
    [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    TestTranslateCinderInTreeStorageClassToCSI, TranslateStorageClassTest,
    ::testing::Values(
        StorageClassCase{
            "OtherParameterIsKept", kCinder, {{"foo", "bar"}}, {}, {{"foo", "bar"}}, {}},
        StorageClassCase{"NoParameters", kCinder, {}, {}, {}, {}},
        StorageClassCase{"FsTypeIsPrefixed",
                         kCinder,
                         {{"fstype", "ext3"}},
                         {},
                         {{"csi.storage.k8s.io/fstype", "ext3"}},
                         {}},
        StorageClassCase{"AvailabilityIsKept",
                         kCinder,
                         {{"availability", "nova"}},
                         {},
                         {{"availability", "nova"}},
                         {}},
        StorageClassCase{"BetaZoneTopologyIsRenamed",
                         kCinder,
                         {},
                         Topology(kBetaZone, {"nova"}),
                         {},
                         Topology(kCinderZone, {"nova"})},
        // Cinder has no zone parameters: kept as parameters, no conflict.
        StorageClassCase{"ZoneParameterIsKept",
                         kCinder,
                         {{"zone", "nova"}},
                         Topology(kGaZone, {"nova"}),
                         {{"zone", "nova"}},
                         Topology(kCinderZone, {"nova"})}),
    [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    TestTranslateInTreeStorageClassToCSI, TranslateStorageClassTest,
    ::testing::Values(
        StorageClassCase{
            "OtherParameterIsKept", kAzureDisk, {{"foo", "bar"}}, {}, {{"foo", "bar"}}, {}},
        StorageClassCase{"NoParameters", kAzureDisk, {}, {}, {}, {}},
        StorageClassCase{"ZoneBecomesTopology",
                         kAzureDisk,
                         {{"zone", "foo"}},
                         {},
                         {},
                         Topology(kAzureZone, {"foo"})},
        StorageClassCase{"ZonesBecomeTopology",
                         kAzureDisk,
                         {{"zones", "foo,bar,baz"}},
                         {},
                         {},
                         Topology(kAzureZone, {"foo", "bar", "baz"})},
        StorageClassCase{"CsiTopologyIsKept",
                         kAzureDisk,
                         {},
                         Topology(kAzureZone, {"foo"}),
                         {},
                         Topology(kAzureZone, {"foo"})},
        StorageClassCase{"GaZoneTopologyIsRenamed",
                         kAzureDisk,
                         {},
                         Topology(kGaZone, {"foo"}),
                         {},
                         Topology(kAzureZone, {"foo"})},
        StorageClassCase{"BetaZoneTopologyIsRenamed",
                         kAzureDisk,
                         {},
                         Topology(kBetaZone, {"foo"}),
                         {},
                         Topology(kAzureZone, {"foo"})},
        StorageClassCase{"ZoneAndTopologyFail",
                         kAzureDisk,
                         {{"zone", "foo"}},
                         Topology(kAzureZone, {"foo"}),
                         {},
                         {},
                         kBothSet},
        StorageClassCase{"UnzonedRegionBecomesEmpty",
                         kAzureDisk,
                         {},
                         Topology(kGaZone, {"0"}),
                         {},
                         Topology(kAzureZone, {""})},
        StorageClassCase{"LongerUnzonedRegionBecomesEmpty",
                         kAzureDisk,
                         {},
                         Topology(kGaZone, {"1234"}),
                         {},
                         Topology(kAzureZone, {""})},
        StorageClassCase{"ZoneOfRegionIsKept",
                         kAzureDisk,
                         {},
                         Topology(kGaZone, {"centralus-1"}),
                         {},
                         Topology(kAzureZone, {"centralus-1"})},
        // Beyond upstream's rows: fsType is not renamed; zone parameters too
        // lose bare numbers.
        StorageClassCase{
            "FsTypeIsKept", kAzureDisk, {{"fsType", "xfs"}}, {}, {{"fsType", "xfs"}}, {}},
        StorageClassCase{"UnzonedZoneParameterBecomesEmpty",
                         kAzureDisk,
                         {{"zones", "1,eastus-2"}},
                         {},
                         {},
                         Topology(kAzureZone, {"", "eastus-2"})}),
    [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(AzureFile, TranslateStorageClassTest,
                         ::testing::Values(StorageClassCase{
                             "NothingChanges",
                             kAzureFile,
                             {{"skuName", "Standard_LRS"}, {"zone", "1"}},
                             Topology(kGaZone, {"1"}),
                             {{"skuName", "Standard_LRS"}, {"zone", "1"}},
                             Topology(kGaZone, {"1"})}),
                         [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    TestTranslatevSphereInTreeStorageClassToCSI, TranslateStorageClassTest,
    ::testing::Values(
        StorageClassCase{
            "NoParametersMarksMigration", kVsphere, {}, {}, {{"csimigration", "true"}}, {}},
        StorageClassCase{"UnknownParameterIsDropped",
                         kVsphere,
                         {{"unknownparam", "value"}},
                         {},
                         {{"csimigration", "true"}},
                         {}},
        StorageClassCase{
            "PolicyKeptDatastoreRenamed",
            kVsphere,
            {{"storagepolicyname", "test-policy-name"}, {"datastore", "vsanDatastore"}},
            {},
            {{"storagepolicyname", "test-policy-name"},
             {"datastore-migrationparam", "vsanDatastore"},
             {"csimigration", "true"}},
            {}},
        StorageClassCase{"FsTypeIsPrefixed",
                         kVsphere,
                         {{"fstype", "ext4"}},
                         {},
                         {{"csi.storage.k8s.io/fstype", "ext4"}, {"csimigration", "true"}},
                         {}},
        StorageClassCase{"GaZoneTopologyIsRenamed",
                         kVsphere,
                         {},
                         Topology(kGaZone, {"zone-a"}),
                         {{"csimigration", "true"}},
                         Topology(kVsphereZone, {"zone-a"})},
        StorageClassCase{"BetaZoneTopologyIsRenamed",
                         kVsphere,
                         {{"storagepolicyname", "test-policy-name"}},
                         Topology(kBetaZone, {"zone-a"}),
                         {{"storagepolicyname", "test-policy-name"}, {"csimigration", "true"}},
                         Topology(kVsphereZone, {"zone-a"})},
        StorageClassCase{"AllParametersRenamed",
                         kVsphere,
                         {{"storagepolicyname", "test-policy-name"},
                          {"datastore", "test-datastore-name"},
                          {"fstype", "ext4"},
                          {"diskformat", "thin"},
                          {"hostfailurestotolerate", "1"},
                          {"forceprovisioning", "yes"},
                          {"cachereservation", "25"},
                          {"diskstripes", "4"},
                          {"objectspacereservation", "10"},
                          {"iopslimit", "32"}},
                         Topology(kGaZone, {"zone-a"}),
                         {{"storagepolicyname", "test-policy-name"},
                          {"datastore-migrationparam", "test-datastore-name"},
                          {"csi.storage.k8s.io/fstype", "ext4"},
                          {"diskformat-migrationparam", "thin"},
                          {"hostfailurestotolerate-migrationparam", "1"},
                          {"forceprovisioning-migrationparam", "yes"},
                          {"cachereservation-migrationparam", "25"},
                          {"diskstripes-migrationparam", "4"},
                          {"objectspacereservation-migrationparam", "10"},
                          {"iopslimit-migrationparam", "32"},
                          {"csimigration", "true"}},
                         Topology(kVsphereZone, {"zone-a"})},
        // Beyond upstream's rows: keys in any case come out lower case, and
        // zone parameters are dropped like any unknown one.
        StorageClassCase{"MixedCaseKeysAreRenamed",
                         kVsphere,
                         {{"StoragePolicyName", "gold"}, {"DiskFormat", "thin"}, {"zone", "a"}},
                         {},
                         {{"storagepolicyname", "gold"},
                          {"diskformat-migrationparam", "thin"},
                          {"csimigration", "true"}},
                         {}}),
    [](const auto& info) { return info.param.name; });

const kube::StringMap kPortworxSecretParameters = {
    {"csi.storage.k8s.io/provisioner-secret-name", "test-secret"},
    {"csi.storage.k8s.io/provisioner-secret-namespace", "test-namespace"},
    {"csi.storage.k8s.io/controller-publish-secret-name", "test-secret"},
    {"csi.storage.k8s.io/controller-publish-secret-namespace", "test-namespace"},
    {"csi.storage.k8s.io/node-stage-secret-name", "test-secret"},
    {"csi.storage.k8s.io/node-stage-secret-namespace", "test-namespace"},
    {"csi.storage.k8s.io/node-publish-secret-name", "test-secret"},
    {"csi.storage.k8s.io/node-publish-secret-namespace", "test-namespace"},
    {"csi.storage.k8s.io/controller-expand-secret-name", "test-secret"},
    {"csi.storage.k8s.io/controller-expand-secret-namespace", "test-namespace"},
    {"csi.storage.k8s.io/node-expand-secret-name", "test-secret"},
    {"csi.storage.k8s.io/node-expand-secret-namespace", "test-namespace"},
};

kube::StringMap With(kube::StringMap map, const std::string& key, const std::string& value) {
  map[key] = value;
  return map;
}

INSTANTIATE_TEST_SUITE_P(
    TestTranslatePortworxInTreeStorageClassToCSI, TranslateStorageClassTest,
    ::testing::Values(
        StorageClassCase{
            "ParametersAreKept",
            kPortworx,
            {{"repl", "1"}, {"fs", "ext4"}, {"shared", "true"}, {"priority_io", "high"}},
            {},
            {{"repl", "1"}, {"fs", "ext4"}, {"shared", "true"}, {"priority_io", "high"}},
            {}},
        StorageClassCase{"NoParameters", kPortworx, {}, {}, {}, {}},
        StorageClassCase{"AuthSecretIsFannedOut",
                         kPortworx,
                         {{"repl", "1"},
                          {"openstorage.io/auth-secret-name", "test-secret"},
                          {"openstorage.io/auth-secret-namespace", "test-namespace"}},
                         {},
                         With(kPortworxSecretParameters, "repl", "1"),
                         {}},
        StorageClassCase{"AuthSecretKeysMatchInAnyCase",
                         kPortworx,
                         {{"OpenStorage.io/Auth-Secret-Name", "test-secret"},
                          {"openstorage.io/auth-secret-namespace", "test-namespace"}},
                         {},
                         kPortworxSecretParameters,
                         {}}),
    [](const auto& info) { return info.param.name; });

TEST(TranslateStorageClassDispatchTest, UnknownPluginFailsWithItsQuotedName) {
  kube::StorageClass sc;
  sc.provisioner = "example.com/nfs";
  auto translated = TranslateInTreeStorageClassToCsi("example.com/nfs", sc);
  ASSERT_FALSE(translated.ok());
  EXPECT_EQ(
      translated.error().message,
      R"(could not find in-tree storage class parameter translation logic for "example.com/nfs")");
}

TEST(TranslateStorageClassDispatchTest, PluginNameMatchesExactly) {
  auto translated = TranslateInTreeStorageClassToCsi("kubernetes.io/GCE-PD", kube::StorageClass{});
  ASSERT_FALSE(translated.ok());
}

TEST(TranslateStorageClassDispatchTest, PluginNameIsQuotedAsGoDoes) {
  auto translated = TranslateInTreeStorageClassToCsi("a\"b\n", kube::StorageClass{});
  ASSERT_FALSE(translated.ok());
  EXPECT_EQ(translated.error().message,
            R"(could not find in-tree storage class parameter translation logic for "a\"b\n")");
}

}  // namespace
}  // namespace migration::storage_class_test
