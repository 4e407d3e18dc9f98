#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "kube/api/codec.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace kube {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A dynamically provisioned CSI PV as the API server returns it.
constexpr char kCsiVolume[] = R"json({
  "apiVersion": "v1",
  "kind": "PersistentVolume",
  "metadata": {
    "annotations": {"pv.kubernetes.io/provisioned-by": "ebs.csi.aws.com",
                    "volume.kubernetes.io/provisioner-deletion-secret-name": ""},
    "creationTimestamp": "2024-05-01T09:59:58Z",
    "finalizers": ["kubernetes.io/pv-protection", "external-attacher/ebs-csi-aws-com"],
    "managedFields": [{"manager": "csi-provisioner", "operation": "Update", "fieldsType": "FieldsV1",
                       "fieldsV1": {"f:spec": {"f:csi": {}}}}],
    "name": "pvc-0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d",
    "resourceVersion": "1790",
    "uid": "0d3e6f7a-8b9c-4d0e-a1f2-3b4c5d6e7f80"
  },
  "spec": {
    "accessModes": ["ReadWriteOnce"],
    "capacity": {"storage": "10Gi"},
    "claimRef": {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "name": "data-db-0",
                 "namespace": "prod", "resourceVersion": "1770",
                 "uid": "0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d"},
    "csi": {
      "driver": "ebs.csi.aws.com",
      "fsType": "xfs",
      "volumeAttributes": {"storage.kubernetes.io/csiProvisionerIdentity": "1714557000000-8081-ebs.csi.aws.com"},
      "volumeHandle": "vol-0a1b2c3d4e5f60718",
      "controllerPublishSecretRef": {"name": "ebs-publish", "namespace": "kube-system"},
      "nodeStageSecretRef": {"name": "ebs-stage", "namespace": "kube-system"}
    },
    "mountOptions": ["noatime"],
    "nodeAffinity": {"required": {"nodeSelectorTerms": [
      {"matchExpressions": [{"key": "topology.ebs.csi.aws.com/zone", "operator": "In",
                             "values": ["us-east-1a"]}]},
      {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In",
                             "values": ["us-east-1b", "us-east-1c"]},
                            {"key": "node.kubernetes.io/instance-type", "operator": "Exists"}],
       "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]}
    ]}},
    "persistentVolumeReclaimPolicy": "Delete",
    "storageClassName": "gp3",
    "volumeMode": "Filesystem"
  },
  "status": {"lastPhaseTransitionTime": "2024-05-01T10:00:00Z", "phase": "Bound"}
})json";

TEST(PersistentVolumeCodec, DecodesCsiVolume) {
  auto pv = DecodeObject<PersistentVolume>(kCsiVolume);
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  const PersistentVolumeSpec& spec = pv->spec;
  EXPECT_EQ(spec.capacity_storage, "10Gi");
  EXPECT_THAT(spec.access_modes, ElementsAre("ReadWriteOnce"));
  EXPECT_EQ(spec.volume_mode, "Filesystem");
  EXPECT_THAT(spec.mount_options, ElementsAre("noatime"));
  ASSERT_TRUE(spec.claim_ref.has_value());
  EXPECT_EQ(*spec.claim_ref,
            (ClaimReference{"prod", "data-db-0", "0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d",
                            "PersistentVolumeClaim", "v1", "1770"}));
  EXPECT_EQ(spec.persistent_volume_reclaim_policy, "Delete");
  EXPECT_EQ(spec.storage_class_name, "gp3");
  EXPECT_EQ(pv->status.phase, "Bound");
  EXPECT_EQ(spec.CountSources(), 1);

  const auto* csi = std::get_if<CSIPersistentVolumeSource>(&spec.source);
  ASSERT_NE(csi, nullptr);
  EXPECT_EQ(csi->driver, "ebs.csi.aws.com");
  EXPECT_EQ(csi->volume_handle, "vol-0a1b2c3d4e5f60718");
  EXPECT_EQ(csi->fs_type, "xfs");
  EXPECT_FALSE(csi->read_only);
  EXPECT_EQ(csi->volume_attributes, (StringMap{{"storage.kubernetes.io/csiProvisionerIdentity",
                                                "1714557000000-8081-ebs.csi.aws.com"}}));
  EXPECT_EQ(csi->controller_publish_secret_ref, (SecretReference{"ebs-publish", "kube-system"}));
}

TEST(PersistentVolumeCodec, DecodesNodeAffinityTerms) {
  auto pv = DecodeObject<PersistentVolume>(kCsiVolume);
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  const auto& terms = pv->spec.node_affinity;
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_THAT(
      terms[0].match_expressions,
      ElementsAre(NodeSelectorRequirement{"topology.ebs.csi.aws.com/zone", "In", {"us-east-1a"}}));
  EXPECT_THAT(terms[1].match_expressions,
              ElementsAre(
                  NodeSelectorRequirement{
                      "topology.kubernetes.io/zone", "In", {"us-east-1b", "us-east-1c"}},
                  NodeSelectorRequirement{"node.kubernetes.io/instance-type", "Exists", {}}));
  EXPECT_TRUE(terms[0].match_fields.empty());
  EXPECT_THAT(terms[1].match_fields,
              ElementsAre(NodeSelectorRequirement{"metadata.name", "In", {"n1"}}));
}

TEST(PersistentVolumeCodec, CsiVolumeRoundTrips) {
  auto pv = DecodeObject<PersistentVolume>(kCsiVolume);
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  auto again = DecodeObject<PersistentVolume>(EncodeObject(*pv));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *pv);
}

TEST(PersistentVolumeCodec, NodeAffinityErrorNamesNestedPath) {
  auto pv = DecodeObject<PersistentVolume>(R"json({"spec": {"nodeAffinity": {"required":
      {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "values": "v"}]}]}}}})json");
  ASSERT_FALSE(pv.ok());
  EXPECT_EQ(pv.error().message,
            "decoding PersistentVolume: spec.nodeAffinity.required.nodeSelectorTerms[0]."
            "matchExpressions[0].values: type must be array, but is string");
}

TEST(PersistentVolumeCodec, CapacityOfWrongTypeIsAnError) {
  auto pv = DecodeObject<PersistentVolume>(R"({"spec": {"capacity": []}})");
  ASSERT_FALSE(pv.ok());
  EXPECT_EQ(pv.error().message,
            "decoding PersistentVolume: spec.capacity: type must be object, but is array");
}

struct InTreeCase {
  const char* name;
  const char* source_json;  // the members of spec
  PersistentVolumeSource expected;
};

class InTreeSourceTest : public ::testing::TestWithParam<InTreeCase> {};

TEST_P(InTreeSourceTest, DecodesAndRoundTrips) {
  std::string text = std::string(R"({"apiVersion": "v1", "kind": "PersistentVolume",
      "metadata": {"name": "pv-intree", "labels": {"topology.kubernetes.io/zone": "us-east1-b"}},
      "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteOnce"], )") +
                     GetParam().source_json + "}}";
  auto pv = DecodeObject<PersistentVolume>(text);
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(pv->spec.source, GetParam().expected);
  EXPECT_EQ(pv->spec.CountSources(), 1);
  EXPECT_EQ(pv->metadata.labels, (StringMap{{"topology.kubernetes.io/zone", "us-east1-b"}}));

  auto again = DecodeObject<PersistentVolume>(EncodeObject(*pv));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *pv);
}

INSTANTIATE_TEST_SUITE_P(
    AllSevenMigratable, InTreeSourceTest,
    ::testing::Values(
        InTreeCase{"GcePersistentDisk",
                   R"("gcePersistentDisk": {"pdName": "disk-1", "fsType": "ext4",
                       "partition": 1, "readOnly": true})",
                   GCEPersistentDiskVolumeSource{"disk-1", "ext4", 1, true}},
        InTreeCase{"AwsElasticBlockStore",
                   R"("awsElasticBlockStore": {"volumeID": "aws://us-west-2a/vol-02399794d890f9375",
                       "fsType": "ext3", "partition": 2})",
                   AWSElasticBlockStoreVolumeSource{"aws://us-west-2a/vol-02399794d890f9375",
                                                    "ext3", 2, false}},
        InTreeCase{"Cinder",
                   R"("cinder": {"volumeID": "b7e1c3a0", "fsType": "ext4", "readOnly": true,
                       "secretRef": {"name": "cinder-secret", "namespace": "kube-system"}})",
                   CinderPersistentVolumeSource{"b7e1c3a0", "ext4", true}},
        InTreeCase{"AzureDisk",
                   R"("azureDisk": {"diskName": "name",
                       "diskURI": "/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/disks/name",
                       "cachingMode": "ReadOnly", "fsType": "ext4", "readOnly": false,
                       "kind": "Managed"})",
                   AzureDiskVolumeSource{
                       "/subscriptions/12/resourceGroups/23/providers/Microsoft.Compute/disks/name",
                       "ReadOnly", "ext4", "Managed", false, "name"}},
        InTreeCase{"AzureFile",
                   R"("azureFile": {"secretName": "azure-storage-account-acct-secret",
                       "secretNamespace": "default", "shareName": "share", "readOnly": true})",
                   AzureFilePersistentVolumeSource{"azure-storage-account-acct-secret", "default",
                                                   "share", true}},
        InTreeCase{
            "VsphereVolume",
            R"("vsphereVolume": {"volumePath": "[vsanDatastore] 6785a85e/kubernetes-dynamic-pvc-1.vmdk",
                       "fsType": "ext4", "storagePolicyName": "vSAN Default Storage Policy",
                       "storagePolicyID": "aa6d5a82-1c88-45da-85d3-3d74b91a5bad"})",
            VsphereVirtualDiskVolumeSource{"[vsanDatastore] 6785a85e/kubernetes-dynamic-pvc-1.vmdk",
                                           "ext4", "vSAN Default Storage Policy"}},
        InTreeCase{
            "PortworxVolume",
            R"("portworxVolume": {"volumeID": "ID1111", "fsType": "type", "readOnly": true})",
            PortworxVolumeSource{"ID1111", "type"}}),
    [](const ::testing::TestParamInfo<InTreeCase>& info) { return info.param.name; });

TEST(PersistentVolumeCodec, AzureDiskDistinguishesAbsentPointersFromEmptyValues) {
  auto absent = DecodeObject<PersistentVolume>(R"({"spec": {"azureDisk": {"diskURI": "u"}}})");
  ASSERT_TRUE(absent.ok()) << absent.error().message;
  const auto& a = std::get<AzureDiskVolumeSource>(absent->spec.source);
  EXPECT_FALSE(a.caching_mode.has_value());
  EXPECT_FALSE(a.fs_type.has_value());
  EXPECT_FALSE(a.kind.has_value());
  EXPECT_FALSE(a.read_only.has_value());

  auto empty = DecodeObject<PersistentVolume>(
      R"({"spec": {"azureDisk": {"diskURI": "u", "cachingMode": "", "fsType": ""}}})");
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  const auto& e = std::get<AzureDiskVolumeSource>(empty->spec.source);
  EXPECT_EQ(e.caching_mode, "");
  EXPECT_EQ(e.fs_type, "");

  auto again = DecodeObject<PersistentVolume>(EncodeObject(*empty));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(std::get<AzureDiskVolumeSource>(again->spec.source), e);
}

TEST(PersistentVolumeCodec, AzureFileDistinguishesAbsentSecretNamespaceFromEmpty) {
  auto absent = DecodeObject<PersistentVolume>(
      R"({"spec": {"azureFile": {"secretName": "s", "shareName": "sh"}}})");
  auto empty = DecodeObject<PersistentVolume>(
      R"({"spec": {"azureFile": {"secretName": "s", "shareName": "sh", "secretNamespace": ""}}})");
  ASSERT_TRUE(absent.ok() && empty.ok());
  EXPECT_FALSE(
      std::get<AzureFilePersistentVolumeSource>(absent->spec.source).secret_namespace.has_value());
  EXPECT_EQ(std::get<AzureFilePersistentVolumeSource>(empty->spec.source).secret_namespace, "");
}

TEST(PersistentVolumeCodec, OtherSourceKeepsOnlyItsName) {
  auto pv = DecodeObject<PersistentVolume>(R"json({"metadata": {"name": "nfs-pv"},
      "spec": {"capacity": {"storage": "1Ti"}, "accessModes": ["ReadWriteMany"],
               "nfs": {"server": "10.0.0.2", "path": "/exports/data"}}})json");
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(pv->spec.source, PersistentVolumeSource(OtherVolumeSource{"nfs"}));
  EXPECT_EQ(pv->spec.CountSources(), 1);

  auto again = DecodeObject<PersistentVolume>(EncodeObject(*pv));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->spec.source, pv->spec.source);
}

TEST(PersistentVolumeCodec, NoSourceDecodesToMonostate) {
  auto pv = DecodeObject<PersistentVolume>(
      R"({"metadata": {"name": "pv"}, "spec": {"capacity": {"storage": "1Gi"}, "csi": null}})");
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_TRUE(std::holds_alternative<std::monostate>(pv->spec.source));
  EXPECT_EQ(pv->spec.CountSources(), 0);
}

TEST(PersistentVolumeCodec, SeveralSourcesAreCountedAndInTreeWins) {
  auto pv = DecodeObject<PersistentVolume>(R"json({"spec": {
      "csi": {"driver": "pd.csi.storage.gke.io", "volumeHandle": "h"},
      "hostPath": {"path": "/tmp"},
      "gcePersistentDisk": {"pdName": "pd"}}})json");
  ASSERT_TRUE(pv.ok()) << pv.error().message;
  EXPECT_EQ(pv->spec.CountSources(), 3);
  ASSERT_TRUE(std::holds_alternative<GCEPersistentDiskVolumeSource>(pv->spec.source));
  EXPECT_EQ(std::get<GCEPersistentDiskVolumeSource>(pv->spec.source).pd_name, "pd");
}

TEST(PersistentVolumeCodec, WrongTypeInsideSourceNamesThePath) {
  auto pv = DecodeObject<PersistentVolume>(
      R"({"spec": {"gcePersistentDisk": {"pdName": "pd", "partition": "1"}}})");
  ASSERT_FALSE(pv.ok());
  EXPECT_EQ(pv.error().message,
            "decoding PersistentVolume: spec.gcePersistentDisk.partition: type must be integer, "
            "but is string");
}

// Caches hold 20,000+ PVs. The spec's fixed members are 4 interned strings
// (8 bytes each) and 3 vectors (24 each) plus an optional claimRef of 3
// strings (~104); the source variant costs its largest alternative, the CSI
// source (~88: driver and fsType interned, its publish secret a HeapOptional),
// plus a tag. That is ~312 bytes; plain strings for the interned members would
// add 144 more, and seven optional<> in-tree structs next to the CSI one ~700.
TEST(PersistentVolumeCodec, SpecStaysCompact) {
  EXPECT_LE(sizeof(PersistentVolumeSource),
            sizeof(CSIPersistentVolumeSource) + alignof(CSIPersistentVolumeSource));
  // The provisioner writes the four node and expand secret references (a
  // pointer each) and the claimRef's kind, apiVersion and resourceVersion.
  EXPECT_LE(sizeof(CSIPersistentVolumeSource), 104u);
  EXPECT_LE(sizeof(PersistentVolumeSpec), 368u);
}

}  // namespace
}  // namespace kube
