// docs/provisioner.md §3.3-§3.5: what a claim and its class ask of the driver
// (MakeVolumeRequest), one case per rule, with upstream's error texts and the
// ProvisioningState each failure carries.
#include "provisioner/volume_request.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace provisioner {
namespace {

using csi::ControllerRpc;
using csi::PluginService;
using Mode = csi::v1::VolumeCapability::AccessMode;

kube::PersistentVolumeClaim Claim() {
  kube::PersistentVolumeClaim claim;
  claim.metadata.name = "data";
  claim.metadata.namespace_ = "apps";
  claim.metadata.uid = kube::Uid("0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d");
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.storage_class_name = "fast";
  claim.spec.volume_mode = "Filesystem";
  return claim;
}

kube::StorageClass Class(kube::StringMap parameters = {}) {
  kube::StorageClass storage_class;
  storage_class.metadata.name = "fast";
  storage_class.provisioner = "fast.csi.example.com";
  storage_class.parameters = std::move(parameters);
  storage_class.mount_options = {"noatime"};
  return storage_class;
}

csi::Capabilities Provisioning() {
  return {.plugin_services = {PluginService::CONTROLLER_SERVICE},
          .controller_rpcs = {ControllerRpc::CREATE_DELETE_VOLUME}};
}

VolumeRequest Request(const VolumeRequestResult& result) {
  if (const auto* failure = std::get_if<ProvisionFailure>(&result)) {
    ADD_FAILURE() << "unexpected failure: " << failure->error.message;
    return {};
  }
  EXPECT_TRUE(std::holds_alternative<VolumeRequest>(result));
  return std::holds_alternative<VolumeRequest>(result) ? std::get<VolumeRequest>(result)
                                                       : VolumeRequest{};
}

ProvisionFailure Failure(const VolumeRequestResult& result) {
  EXPECT_TRUE(std::holds_alternative<ProvisionFailure>(result));
  return std::holds_alternative<ProvisionFailure>(result) ? std::get<ProvisionFailure>(result)
                                                          : ProvisionFailure{};
}

TEST(VolumeRequestTest, NameSizeCapabilitiesAndParametersOfAPlainClaim) {
  VolumeRequest r = Request(
      MakeVolumeRequest(Claim(), Class({{"type", "ssd"}}), Provisioning(), VolumeRequestOptions{}));
  EXPECT_EQ(r.request.name(), "pvc-0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d");
  EXPECT_EQ(r.request.capacity_range().required_bytes(), 1LL << 30);
  EXPECT_EQ(r.request.capacity_range().limit_bytes(), 0);
  ASSERT_EQ(r.request.volume_capabilities_size(), 1);
  const auto& capability = r.request.volume_capabilities(0);
  EXPECT_EQ(capability.access_mode().mode(), Mode::SINGLE_NODE_WRITER);
  ASSERT_TRUE(capability.has_mount());
  EXPECT_EQ(capability.mount().fs_type(), "");
  ASSERT_EQ(capability.mount().mount_flags_size(), 1);
  EXPECT_EQ(capability.mount().mount_flags(0), "noatime");
  ASSERT_EQ(r.request.parameters_size(), 1);
  EXPECT_EQ(r.request.parameters().at("type"), "ssd");
  EXPECT_FALSE(r.provisioner_secret.has_value());
}

TEST(VolumeRequestTest, UuidLengthShortensTheNameWithoutDashes) {
  VolumeRequestOptions options;
  options.volume_name_prefix = "vol";
  options.volume_name_uuid_length = 8;
  VolumeRequest r = Request(MakeVolumeRequest(Claim(), Class(), Provisioning(), options));
  EXPECT_EQ(r.request.name(), "vol-0b8f5d9e");
}

TEST(VolumeRequestTest, OneCapabilityPerAccessModeAndBlockClaimsGetBlock) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.access_modes = {"ReadOnlyMany", "ReadWriteMany"};
  claim.spec.volume_mode = "Block";
  VolumeRequest r = Request(MakeVolumeRequest(claim, Class(), Provisioning(), {}));
  ASSERT_EQ(r.request.volume_capabilities_size(), 2);
  EXPECT_EQ(r.request.volume_capabilities(0).access_mode().mode(), Mode::MULTI_NODE_READER_ONLY);
  EXPECT_EQ(r.request.volume_capabilities(1).access_mode().mode(), Mode::MULTI_NODE_MULTI_WRITER);
  EXPECT_TRUE(r.request.volume_capabilities(0).has_block());
}

TEST(VolumeRequestTest, SingleNodeMultiWriterSplitsReadWriteOnceFromReadWriteOncePod) {
  csi::Capabilities capabilities = Provisioning();
  capabilities.controller_rpcs.insert(ControllerRpc::SINGLE_NODE_MULTI_WRITER);
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.access_modes = {"ReadWriteOnce", "ReadWriteOncePod"};
  VolumeRequest r = Request(MakeVolumeRequest(claim, Class(), capabilities, {}));
  ASSERT_EQ(r.request.volume_capabilities_size(), 2);
  EXPECT_EQ(r.request.volume_capabilities(0).access_mode().mode(), Mode::SINGLE_NODE_MULTI_WRITER);
  EXPECT_EQ(r.request.volume_capabilities(1).access_mode().mode(), Mode::SINGLE_NODE_SINGLE_WRITER);
}

TEST(VolumeRequestTest, FsTypeFromEitherKeyTheOldOneStaysInParameters) {
  VolumeRequest prefixed = Request(MakeVolumeRequest(
      Claim(), Class({{"csi.storage.k8s.io/fstype", "xfs"}}), Provisioning(), {}));
  EXPECT_EQ(prefixed.fs_type, "xfs");
  EXPECT_EQ(prefixed.request.volume_capabilities(0).mount().fs_type(), "xfs");
  EXPECT_EQ(prefixed.request.parameters_size(), 0);
  VolumeRequest old =
      Request(MakeVolumeRequest(Claim(), Class({{"FSType", "ext3"}}), Provisioning(), {}));
  EXPECT_EQ(old.fs_type, "ext3");
  EXPECT_EQ(old.request.parameters().at("FSType"), "ext3");
}

TEST(VolumeRequestTest, DefaultFsTypeOnlyWhenTheClassNamesNone) {
  VolumeRequestOptions options;
  options.default_fstype = "ext4";
  EXPECT_EQ(Request(MakeVolumeRequest(Claim(), Class(), Provisioning(), options)).fs_type, "ext4");
  EXPECT_EQ(Request(MakeVolumeRequest(Claim(), Class({{"fstype", "xfs"}}), Provisioning(), options))
                .fs_type,
            "xfs");
}

TEST(VolumeRequestTest, BothFsTypeKeysAreAFinishedError) {
  ProvisionFailure f = Failure(
      MakeVolumeRequest(Claim(), Class({{"fstype", "xfs"}, {"csi.storage.k8s.io/fstype", "ext4"}}),
                        Provisioning(), {}));
  EXPECT_EQ(f.error.message,
            "fstype specified in parameters with both \"fstype\" and \"csi.storage.k8s.io/fstype\" "
            "keys");
  EXPECT_EQ(f.state, ProvisioningState::kFinished);
}

TEST(VolumeRequestTest, UnknownReservedKeyIsAFinishedError) {
  ProvisionFailure f = Failure(
      MakeVolumeRequest(Claim(), Class({{"csi.storage.k8s.io/bogus", "x"}}), Provisioning(), {}));
  EXPECT_EQ(f.error.message,
            "failed to strip CSI Parameters of prefixed keys: found unknown parameter key "
            "\"csi.storage.k8s.io/bogus\" with reserved namespace csi.storage.k8s.io/");
  EXPECT_EQ(f.state, ProvisioningState::kFinished);
}

TEST(VolumeRequestTest, ExtraCreateMetadataAddsClaimAndVolumeNames) {
  VolumeRequestOptions options;
  options.extra_create_metadata = true;
  VolumeRequest r = Request(MakeVolumeRequest(Claim(), Class(), Provisioning(), options));
  EXPECT_EQ(r.request.parameters().at("csi.storage.k8s.io/pvc/name"), "data");
  EXPECT_EQ(r.request.parameters().at("csi.storage.k8s.io/pvc/namespace"), "apps");
  EXPECT_EQ(r.request.parameters().at("csi.storage.k8s.io/pv/name"),
            "pvc-0b8f5d9e-3c2a-4f1b-8e7d-6c5b4a3f2e1d");
}

TEST(VolumeRequestTest, SecretTemplatesResolveAndAreStripped) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.metadata.annotations["team"] = "blue";
  VolumeRequest r = Request(MakeVolumeRequest(
      claim,
      Class({{"csi.storage.k8s.io/provisioner-secret-name", "${pvc.name}-creds"},
             {"csi.storage.k8s.io/provisioner-secret-namespace", "${pvc.namespace}"},
             {"csi.storage.k8s.io/node-stage-secret-name", "${pvc.annotations['team']}"},
             {"csi.storage.k8s.io/node-stage-secret-namespace", "storage"}}),
      Provisioning(), {}));
  ASSERT_TRUE(r.provisioner_secret.has_value());
  EXPECT_EQ(r.provisioner_secret->name, "data-creds");
  EXPECT_EQ(r.provisioner_secret->namespace_, "apps");
  ASSERT_TRUE(r.secret(SecretKind::kNodeStage).has_value());
  EXPECT_EQ(r.secret(SecretKind::kNodeStage)->name, "blue");
  EXPECT_FALSE(r.secret(SecretKind::kNodePublish).has_value());
  EXPECT_EQ(r.request.parameters_size(), 0);
}

TEST(VolumeRequestTest, DefaultSecretServesEveryKindNamedByNoneOfItsOwn) {
  VolumeRequest r =
      Request(MakeVolumeRequest(Claim(),
                                Class({{"csi.storage.k8s.io/secret-name", "all"},
                                       {"csi.storage.k8s.io/secret-namespace", "kube-system"}}),
                                Provisioning(), {}));
  for (SecretKind kind : kAllSecretKinds) {
    ASSERT_TRUE(r.secret(kind).has_value());
    EXPECT_EQ(r.secret(kind)->name, "all");
  }
}

TEST(VolumeRequestTest, SecretErrorsAreNoChangeWithUpstreamTexts) {
  struct Case {
    kube::StringMap parameters;
    std::string want;
  };
  const Case cases[] = {
      {{{"csi.storage.k8s.io/provisioner-secret-name", "a"}},
       "failed to get name and namespace template from params: either name and namespace for "
       "Provisioner secrets specified, Both must be specified"},
      {{{"csiProvisionerSecretName", "a"},
        {"csiProvisionerSecretNamespace", "b"},
        {"csi.storage.k8s.io/provisioner-secret-name", "a"},
        {"csi.storage.k8s.io/provisioner-secret-namespace", "b"}},
       "failed to get name and namespace template from params: Provisioner secrets specified in "
       "parameters with both \"csi\" and \"csi.storage.k8s.io/\" keys"},
      {{{"csi.storage.k8s.io/secret-name", "a"}},
       "failed to get default name and namespace template from params: either name and namespace "
       "for Default secrets specified, Both must be specified"},
      {{{"csi.storage.k8s.io/provisioner-secret-name", "${pvc.uid}"},
        {"csi.storage.k8s.io/provisioner-secret-namespace", "x"}},
       "error resolving value \"${pvc.uid}\": invalid tokens: [\"pvc.uid\"]"},
      {{{"csi.storage.k8s.io/provisioner-secret-name", "a"},
        {"csi.storage.k8s.io/provisioner-secret-namespace", "${pvc.name}"}},
       "error resolving value \"${pvc.name}\": invalid tokens: [\"pvc.name\"]"},
  };
  for (const Case& c : cases) {
    ProvisionFailure f =
        Failure(MakeVolumeRequest(Claim(), Class(c.parameters), Provisioning(), {}));
    EXPECT_EQ(f.error.message, c.want);
    EXPECT_EQ(f.state, ProvisioningState::kNoChange) << c.want;
  }
}

TEST(VolumeRequestTest, MissingCapabilitiesAreFinishedErrors) {
  csi::Capabilities none;
  EXPECT_EQ(Failure(MakeVolumeRequest(Claim(), Class(), none, {})).error.message,
            "CSI driver does not support dynamic provisioning: plugin CONTROLLER_SERVICE "
            "capability is not reported");
  csi::Capabilities no_create = {.plugin_services = {PluginService::CONTROLLER_SERVICE}};
  EXPECT_EQ(Failure(MakeVolumeRequest(Claim(), Class(), no_create, {})).error.message,
            "CSI driver does not support dynamic provisioning: controller CREATE_DELETE_VOLUME "
            "capability is not reported");
}

TEST(VolumeRequestTest, SelectorIsNotSupported) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.selector = kube::LabelSelector{};
  ProvisionFailure f = Failure(MakeVolumeRequest(claim, Class(), Provisioning(), {}));
  EXPECT_EQ(f.error.message, "claim Selector is not supported");
  EXPECT_EQ(f.state, ProvisioningState::kFinished);
}

TEST(VolumeRequestTest, UnsupportedAccessModeCombinationIsFinished) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.access_modes = {"ReadWriteSometimes"};
  ProvisionFailure f = Failure(MakeVolumeRequest(claim, Class(), Provisioning(), {}));
  EXPECT_EQ(f.error.message, "unsupported AccessMode combination: [ReadWriteSometimes]");
  EXPECT_EQ(f.state, ProvisioningState::kFinished);
}

TEST(VolumeRequestTest, PopulatorKindsAreLeftAlone) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.data_source_ref = kube::TypedObjectReference{
      .api_group = "hello.example.com", .kind = "Hello", .name = "h", .namespace_ = {}};
  EXPECT_TRUE(std::holds_alternative<LeftToPopulator>(
      MakeVolumeRequest(claim, Class(), Provisioning(), {})));
}

TEST(VolumeRequestTest, CrossNamespaceSourceNeedsTheGate) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.data_source_ref = kube::TypedObjectReference{
      .api_group = {}, .kind = "PersistentVolumeClaim", .name = "src", .namespace_ = "other"};
  ProvisionFailure f = Failure(MakeVolumeRequest(claim, Class(), Provisioning(), {}));
  EXPECT_EQ(f.error.message,
            "dataSourceRef namespace specified but the CrossNamespaceVolumeDataSource feature is "
            "disabled");
}

TEST(VolumeRequestTest, SnapshotSourceOfTheWrongGroupIsRejected) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = "example.com", .kind = "VolumeSnapshot", .name = "s"};
  EXPECT_EQ(Failure(MakeVolumeRequest(claim, Class(), Provisioning(), {})).error.message,
            "the PVC source does not belong to the right APIGroup. Expected "
            "snapshot.storage.k8s.io, Got example.com");
}

// §3.3 steps 3-4: a snapshot or clone source is recorded for the checks of
// §3.7 when the driver can restore or clone, else a Finished error.
TEST(VolumeRequestTest, SnapshotAndCloneSourcesNeedTheirCapability) {
  struct Case {
    kube::TypedLocalObjectReference source;
    ControllerRpc::Type needed;
    std::string missing;
  };
  const Case cases[] = {
      {{.api_group = "snapshot.storage.k8s.io", .kind = "VolumeSnapshot", .name = "snap-1"},
       ControllerRpc::CREATE_DELETE_SNAPSHOT,
       "CSI driver does not support snapshot restore: controller CREATE_DELETE_SNAPSHOT "
       "capability is not reported"},
      {{.api_group = {}, .kind = "PersistentVolumeClaim", .name = "src"},
       ControllerRpc::CLONE_VOLUME,
       "CSI driver does not support clone operations: controller CLONE_VOLUME capability is not "
       "reported"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.source.kind);
    kube::PersistentVolumeClaim claim = Claim();
    claim.spec.data_source = c.source;
    ProvisionFailure f = Failure(MakeVolumeRequest(claim, Class(), Provisioning(), {}));
    EXPECT_EQ(f.error.message, c.missing);
    EXPECT_EQ(f.state, ProvisioningState::kFinished);

    csi::Capabilities capable = Provisioning();
    capable.controller_rpcs.insert(c.needed);
    VolumeRequest request = Request(MakeVolumeRequest(claim, Class(), capable, {}));
    ASSERT_TRUE(request.data_source.has_value());
    EXPECT_EQ(request.data_source->kind, c.source.kind);
    EXPECT_EQ(request.data_source->name, c.source.name);
    EXPECT_EQ(request.data_source->namespace_, "apps");
    // The content source is filled in only once the source is checked.
    EXPECT_FALSE(request.request.has_volume_content_source());
  }
}

TEST(VolumeRequestTest, DataSourceRefInTheClaimsNamespaceIsASourceToo) {
  kube::PersistentVolumeClaim claim = Claim();
  claim.spec.data_source_ref = kube::TypedObjectReference{.api_group = "snapshot.storage.k8s.io",
                                                          .kind = "VolumeSnapshot",
                                                          .name = "snap-1",
                                                          .namespace_ = {}};
  csi::Capabilities capable = Provisioning();
  capable.controller_rpcs.insert(ControllerRpc::CREATE_DELETE_SNAPSHOT);
  VolumeRequest request = Request(MakeVolumeRequest(claim, Class(), capable, {}));
  ASSERT_TRUE(request.data_source.has_value());
  EXPECT_TRUE(request.data_source->IsSnapshot());
  EXPECT_EQ(request.data_source->name, "snap-1");
}

}  // namespace
}  // namespace provisioner
