// docs/provisioner.md §3.13: a provisioner of a CSI migration target
// (ebs.csi.aws.com) answers to the in-tree plugin's name too. Its claims
// count when KCM's storage-provisioner annotation names the driver, or names
// the plugin beside pv.kubernetes.io/migrated-to naming the driver; its class
// reaches CreateVolume translated; its PV is written in in-tree form, named
// provisioned-by the plugin; such a PV is deleted through its CSI
// translation; every call of a migrated volume is marked migrated. The
// ClaimController and VolumeController run over fakes (provisioner_fakes.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "provisioner/claim_controller.h"
#include "provisioner/volume_controller.h"
#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using kube::WatchEventType;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr std::string_view kEbsDriver = "ebs.csi.aws.com";
constexpr std::string_view kEbsPlugin = "kubernetes.io/aws-ebs";

kube::StorageClass InTreeClass() {
  kube::StorageClass storage_class = fakes::DriverClass("ebs");
  storage_class.provisioner = std::string(kEbsPlugin);
  storage_class.parameters = {{"type", "gp3"}, {"fsType", "xfs"}};
  return storage_class;
}

// A claim of the in-tree class as KCM hands it over with migration on.
kube::PersistentVolumeClaim MigratedClaim(const std::string& name, const std::string& uid) {
  kube::PersistentVolumeClaim claim = fakes::PendingClaim(name, uid, "ebs");
  claim.metadata.annotations[kStorageProvisionerAnnotation] = std::string(kEbsDriver);
  claim.metadata.annotations[kMigratedToAnnotation] = std::string(kEbsDriver);
  return claim;
}

class InTreeClaimTest : public fakes::World {
 protected:
  void Start(std::vector<kube::PersistentVolumeClaim> claims) {
    claims_.SetItems(std::move(claims));
    classes_.SetItems({InTreeClass()});
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(claims_);
    ClaimControllerOptions options;
    options.loop.worker_threads = 1;
    controller_.emplace(std::string(kEbsDriver), "1700000000000-8081-ebs.csi.aws.com",
                        capabilities_, std::move(options), informers, api_, driver_, events_,
                        nullptr, clock_);
    RunController(*controller_);
  }

  testsupport::FakeListerWatcher<kube::PersistentVolumeClaim> claims_;
  fakes::FakeClaimEvents events_{log_};
  csi::Capabilities capabilities_{.plugin_services = {csi::PluginService::CONTROLLER_SERVICE},
                                  .controller_rpcs = {csi::ControllerRpc::CREATE_DELETE_VOLUME}};
  std::optional<ClaimController> controller_;
};

TEST_F(InTreeClaimTest, InTreeClassIsTranslatedForCreateVolumeAndThePvWrittenInTree) {
  Start({MigratedClaim("data", "uid-1")});
  ASSERT_TRUE(log_.Await("Succeeded", "apps/data"));
  std::vector<csi::v1::CreateVolumeRequest> requests = driver_.CreateRequests("pvc-uid-1");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].parameters().size(), 1u);
  EXPECT_EQ(requests[0].parameters().at("type"), "gp3");
  EXPECT_EQ(requests[0].volume_capabilities(0).mount().fs_type(), "xfs");
  EXPECT_THAT(driver_.MigratedCalls(), ElementsAre("CreateVolume pvc-uid-1"));

  std::optional<kube::PersistentVolume> pv = api_.Stored("pvc-uid-1");
  ASSERT_TRUE(pv.has_value());
  const auto* ebs = std::get_if<kube::AWSElasticBlockStoreVolumeSource>(&pv->spec.source);
  ASSERT_NE(ebs, nullptr) << "the PV was not written in in-tree form";
  EXPECT_EQ(ebs->volume_id, "vol-pvc-uid-1");
  EXPECT_EQ(ebs->fs_type, "xfs");
  auto provisioned_by = pv->metadata.annotations.find(kProvisionedByAnnotation);
  ASSERT_NE(provisioned_by, pv->metadata.annotations.end());
  EXPECT_EQ(provisioned_by->second, kEbsPlugin);
  EXPECT_EQ(pv->spec.storage_class_name, "ebs");
}

// Upstream's ShouldProvision: the in-tree name counts only beside
// migrated-to naming the driver.
TEST_F(InTreeClaimTest, ClaimNamingThePluginCountsOnlyWithMigratedToNamingTheDriver) {
  kube::PersistentVolumeClaim handed = MigratedClaim("handed", "uid-2");
  handed.metadata.annotations[kStorageProvisionerAnnotation] = std::string(kEbsPlugin);
  kube::PersistentVolumeClaim unmarked = handed;
  unmarked.metadata.name = "unmarked";
  unmarked.metadata.uid = "uid-3";
  unmarked.metadata.annotations.erase(std::string(kMigratedToAnnotation));
  Start({unmarked, handed});
  ASSERT_TRUE(log_.Await("Succeeded", "apps/handed"));
  EXPECT_THAT(log_.Of({"apps/unmarked", "pvc-uid-3"}), IsEmpty());
}

class InTreeVolumeTest : public fakes::World {
 protected:
  void Start(std::vector<kube::PersistentVolume> volumes) {
    volumes_.SetItems(std::move(volumes));
    classes_.SetItems({InTreeClass()});
    kube::InformerSet& informers = MakeInformers();
    VolumeControllerOptions options;
    options.loop.worker_threads = 1;
    controller_.emplace(std::string(kEbsDriver), std::move(options), informers, api_, driver_,
                        events_, nullptr, clock_);
    RunController(*controller_);
  }

  fakes::FakeVolumeEvents events_{log_};
  std::optional<VolumeController> controller_;
};

// A Released in-tree PV the provisioner wrote is deleted through its CSI
// translation: DeleteVolume of the EBS volume ID, counted migrated.
TEST_F(InTreeVolumeTest, ReleasedInTreePvIsDeletedThroughItsCsiTranslation) {
  kube::PersistentVolume pv = fakes::WithOurFinalizer(fakes::DriverVolume("pvc-uid-4", "Released"));
  pv.metadata.annotations[std::string(kProvisionedByAnnotation)] = std::string(kEbsPlugin);
  pv.spec.storage_class_name = "ebs";
  pv.spec.source = kube::AWSElasticBlockStoreVolumeSource{.volume_id = "vol-0123456789abcdef0"};
  Start({pv});
  ASSERT_TRUE(log_.Await("DELETE", "pvc-uid-4"));
  EXPECT_EQ(log_.Count("DeleteVolume", "vol-0123456789abcdef0"), 1u);
  EXPECT_THAT(driver_.MigratedCalls(), ElementsAre("DeleteVolume vol-0123456789abcdef0"));
}

// A PV provisioned by another in-tree plugin is not this driver's.
TEST_F(InTreeVolumeTest, InTreePvOfAnotherPluginIsLeftAlone) {
  kube::PersistentVolume other =
      fakes::WithOurFinalizer(fakes::DriverVolume("pvc-uid-5", "Released"));
  other.metadata.annotations[std::string(kProvisionedByAnnotation)] = "kubernetes.io/gce-pd";
  other.spec.source = kube::GCEPersistentDiskVolumeSource{.pd_name = "disk-5"};
  kube::PersistentVolume ours =
      fakes::WithOurFinalizer(fakes::DriverVolume("pvc-uid-6", "Released"));
  ours.metadata.annotations[std::string(kProvisionedByAnnotation)] = std::string(kEbsPlugin);
  ours.spec.source = kube::AWSElasticBlockStoreVolumeSource{.volume_id = "vol-0000000000000006"};
  Start({other, ours});
  ASSERT_TRUE(log_.Await("DELETE", "pvc-uid-6"));
  EXPECT_THAT(log_.Of({"pvc-uid-5", "disk-5"}), IsEmpty());
}

}  // namespace
}  // namespace provisioner
