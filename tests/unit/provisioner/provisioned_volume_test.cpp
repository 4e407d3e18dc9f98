// docs/provisioner.md §3.2 step 4, §3.9: the PV the provisioner writes, field
// for field, and the names it reads and writes (§3.3 step 5, §6).
#include "provisioner/provisioned_volume.h"

#include <gtest/gtest.h>

#include "provisioner/names.h"

namespace provisioner {
namespace {

struct Fixture {
  kube::PersistentVolumeClaim claim;
  kube::StorageClass storage_class;
  VolumeRequest request;
  csi::v1::Volume volume;

  Fixture() {
    claim.metadata.name = "data";
    claim.metadata.namespace_ = "apps";
    claim.metadata.uid = kube::Uid("u-1");
    claim.metadata.resource_version = "42";
    claim.spec.access_modes = {"ReadOnlyMany"};
    claim.spec.volume_mode = "Filesystem";
    claim.spec.storage_class_name = "fast";
    storage_class.metadata.name = "fast";
    storage_class.provisioner = "fast.csi.example.com";
    storage_class.reclaim_policy = "Retain";
    storage_class.mount_options = {"noatime"};
    request.request.set_name("pvc-u-1");
    request.request.add_volume_capabilities()->mutable_access_mode()->set_mode(
        csi::v1::VolumeCapability::AccessMode::MULTI_NODE_READER_ONLY);
    request.fs_type = "ext4";
    volume.set_volume_id("vol-7");
    (*volume.mutable_volume_context())["zone"] = "a";
    (*volume.mutable_volume_context())[std::string(kProvisionerIdentityAttribute)] = "driver-wins";
  }

  kube::PersistentVolume Make(bool readonly = false) {
    const std::string driver = "fast.csi.example.com";
    const std::string identity = "1700000000000-42-fast.csi.example.com";
    return MakeProvisionedVolume({.claim = claim,
                                  .storage_class = storage_class,
                                  .request = request,
                                  .volume = volume,
                                  .capacity_bytes = 1LL << 30,
                                  .driver_name = driver,
                                  .identity = identity,
                                  .controller_publish_readonly = readonly});
  }
};

TEST(ProvisionedVolumeTest, EveryFieldAsUpstreamWritesIt) {
  Fixture f;
  kube::PersistentVolume pv = f.Make();
  EXPECT_EQ(pv.metadata.name, "pvc-u-1");
  ASSERT_EQ(pv.metadata.finalizers.size(), 1u);
  EXPECT_EQ(std::string_view(pv.metadata.finalizers[0]),
            "external-provisioner.volume.kubernetes.io/finalizer");
  const auto& a = pv.metadata.annotations;
  EXPECT_EQ(a.find("pv.kubernetes.io/provisioned-by")->second, "fast.csi.example.com");
  EXPECT_EQ(a.find("volume.kubernetes.io/provisioner-deletion-secret-name")->second, "");
  EXPECT_EQ(a.find("volume.kubernetes.io/provisioner-deletion-secret-namespace")->second, "");
  EXPECT_FALSE(a.contains("volume.kubernetes.io/controller-modify-secret-name"));
  EXPECT_EQ(pv.spec.access_modes, std::vector<std::string>{"ReadOnlyMany"});
  EXPECT_EQ(pv.spec.mount_options, std::vector<std::string>{"noatime"});
  EXPECT_EQ(std::string_view(pv.spec.capacity_storage), "1Gi");
  EXPECT_EQ(std::string_view(pv.spec.persistent_volume_reclaim_policy), "Retain");
  EXPECT_EQ(std::string_view(pv.spec.storage_class_name), "fast");
  EXPECT_EQ(std::string_view(pv.spec.volume_mode), "Filesystem");
  ASSERT_TRUE(pv.spec.claim_ref.has_value());
  EXPECT_EQ(pv.spec.claim_ref->namespace_, "apps");
  EXPECT_EQ(pv.spec.claim_ref->name, "data");
  EXPECT_EQ(pv.spec.claim_ref->uid.str(), "u-1");
  EXPECT_EQ(std::string_view(pv.spec.claim_ref->kind), "PersistentVolumeClaim");
  EXPECT_EQ(std::string_view(pv.spec.claim_ref->api_version), "v1");
  EXPECT_EQ(pv.spec.claim_ref->resource_version, "42");
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&pv.spec.source);
  ASSERT_NE(csi, nullptr);
  EXPECT_EQ(std::string_view(csi->driver), "fast.csi.example.com");
  EXPECT_EQ(csi->volume_handle, "vol-7");
  EXPECT_EQ(std::string_view(csi->fs_type), "ext4");
  EXPECT_FALSE(csi->read_only);
  EXPECT_EQ(csi->volume_attributes.find("zone")->second, "a");
  // The driver's context wins a clash with the identity.
  EXPECT_EQ(csi->volume_attributes.find("storage.kubernetes.io/csiProvisionerIdentity")->second,
            "driver-wins");
}

TEST(ProvisionedVolumeTest, ReadOnlyOnlyWithTheFlagAndReadOnlyManyAlone) {
  Fixture f;
  auto csi_of = [](const kube::PersistentVolume& pv) {
    return std::get<kube::CSIPersistentVolumeSource>(pv.spec.source);
  };
  EXPECT_TRUE(csi_of(f.Make(/*readonly=*/true)).read_only);
  f.request.request.add_volume_capabilities()->mutable_access_mode()->set_mode(
      csi::v1::VolumeCapability::AccessMode::SINGLE_NODE_WRITER);
  EXPECT_FALSE(csi_of(f.Make(/*readonly=*/true)).read_only);
}

TEST(ProvisionedVolumeTest, BlockVolumesHaveNoFsType) {
  Fixture f;
  f.claim.spec.volume_mode = "Block";
  kube::PersistentVolume pv = f.Make();
  EXPECT_EQ(std::string_view(std::get<kube::CSIPersistentVolumeSource>(pv.spec.source).fs_type),
            "");
  EXPECT_EQ(std::string_view(pv.spec.volume_mode), "Block");
}

TEST(ProvisionedVolumeTest, SecretsGoToAnnotationsAndTheCsiSource) {
  Fixture f;
  f.request.provisioner_secret = kube::SecretReference{.name = "p", .namespace_ = "ns"};
  f.request.secrets[static_cast<size_t>(SecretKind::kNodeStage)] =
      kube::SecretReference{.name = "stage", .namespace_ = "ns"};
  f.request.secrets[static_cast<size_t>(SecretKind::kControllerModify)] =
      kube::SecretReference{.name = "mod", .namespace_ = "ns2"};
  kube::PersistentVolume pv = f.Make();
  const auto& a = pv.metadata.annotations;
  EXPECT_EQ(a.find("volume.kubernetes.io/provisioner-deletion-secret-name")->second, "p");
  EXPECT_EQ(a.find("volume.kubernetes.io/provisioner-deletion-secret-namespace")->second, "ns");
  EXPECT_EQ(a.find("volume.kubernetes.io/controller-modify-secret-name")->second, "mod");
  EXPECT_EQ(a.find("volume.kubernetes.io/controller-modify-secret-namespace")->second, "ns2");
  const auto& csi = std::get<kube::CSIPersistentVolumeSource>(pv.spec.source);
  ASSERT_TRUE(csi.node_stage_secret_ref.has_value());
  EXPECT_EQ(csi.node_stage_secret_ref->name, "stage");
  EXPECT_FALSE(csi.node_publish_secret_ref.has_value());
}

TEST(ProvisionedVolumeTest, BetaClassAnnotationWinsOverTheSpec) {
  Fixture f;
  f.claim.metadata.annotations["volume.beta.kubernetes.io/storage-class"] = "old";
  EXPECT_EQ(ClassOfClaim(f.claim), "old");
}

TEST(ProvisionerNamesTest, LeaseIsTheSanitizedDriverName) {
  EXPECT_EQ(LeaseNameFor("hostpath.csi.k8s.io"), "hostpath-csi-k8s-io");
  EXPECT_EQ(LeaseNameFor("a/b_c."), "a-b-c-X");
}

TEST(ProvisionerNamesTest, VolumeNameKeepsOrShortensTheUid) {
  EXPECT_EQ(VolumeName("pvc", "ab-cd-ef", -1), "pvc-ab-cd-ef");
  EXPECT_EQ(VolumeName("pvc", "ab-cd-ef", 3), "pvc-abc");
  EXPECT_EQ(VolumeName("pvc", "ab-cd-ef", 0), "pvc-");
}

}  // namespace
}  // namespace provisioner
