// plugins/vsphere_volume_test.go and portworx_test.go of csi-translation-lib,
// PV -> CSI direction (docs/migration.md §5, §2.6, §2.7).
#include <gtest/gtest.h>

#include "migration/portworx.h"
#include "migration/topology.h"
#include "migration/translate.h"
#include "migration/vsphere_volume.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::In;
using ::migration::testing::PvWith;

constexpr char kPath[] =
    "[vsanDatastore] 6785a85e-268e-6352-a2e8-02008b7afadd/"
    "kubernetes-dynamic-pvc-68734c9f-a679-42e6-a694-39632c51e31f.vmdk";

kube::PersistentVolume VspherePv(kube::StringMap labels = {}) {
  kube::PersistentVolume pv = PvWith(
      [&] {
        kube::VsphereVirtualDiskVolumeSource v;
        v.volume_path = kPath;
        v.fs_type = "ext4";
        v.storage_policy_name = "vSAN Default Storage Policy";
        return v;
      }(),
      std::move(labels));
  pv.spec.access_modes = {"ReadWriteOnce"};
  return pv;
}

// TestTranslateVSphereInTreePVToCSI.
TEST(TestTranslateVSphereInTreePVToCSI, HandleIsThePath) {
  auto translated = TranslateInTreePvToCsi(VspherePv());
  ASSERT_TRUE(translated.ok());
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source), ([&] {
              kube::CSIPersistentVolumeSource v;
              v.driver = "csi.vsphere.vmware.com";
              v.volume_handle = kPath;
              v.fs_type = "ext4";
              v.volume_attributes = {{"storagepolicyname", "vSAN Default Storage Policy"}};
              return v;
            }()));
  EXPECT_TRUE(translated->spec.node_affinity.empty());
  EXPECT_EQ(translated->spec.access_modes, std::vector<std::string>{"ReadWriteOnce"});
}

TEST(TestTranslateVSphereInTreePVToCSI, ZoneAndRegionLabels) {
  const std::vector<kube::NodeSelectorTerm> want = {kube::NodeSelectorTerm{
      {In("topology.csi.vmware.com/zone", {"z1"}), In("topology.csi.vmware.com/region", {"r1"})}}};
  for (const kube::StringMap& labels :
       {kube::StringMap{{std::string(kBetaZoneLabel), "z1"}, {std::string(kBetaRegionLabel), "r1"}},
        kube::StringMap{{std::string(kGaZoneLabel), "z1"}, {std::string(kGaRegionLabel), "r1"}}}) {
    auto translated = TranslateInTreePvToCsi(VspherePv(labels));
    ASSERT_TRUE(translated.ok());
    EXPECT_EQ(translated->spec.node_affinity, want);
    EXPECT_EQ(translated->metadata.labels, labels);
  }
}

TEST(TestTranslateVSphereInTreePVToCSI, LabelIsNotSplitAndAffinityIsRenamed) {
  kube::PersistentVolume pv = VspherePv({{std::string(kGaZoneLabel), "z1__z2"}});
  pv.spec.node_affinity = testing::Na(std::string(kGaRegionLabel), {"r1"});
  std::get<kube::VsphereVirtualDiskVolumeSource>(pv.spec.source).storage_policy_name = "";
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok());
  EXPECT_EQ(translated->spec.node_affinity,
            (std::vector<kube::NodeSelectorTerm>{
                kube::NodeSelectorTerm{{In("topology.csi.vmware.com/region", {"r1"}),
                                        In("topology.csi.vmware.com/zone", {"z1__z2"})}}}));
  EXPECT_TRUE(
      std::get<kube::CSIPersistentVolumeSource>(translated->spec.source).volume_attributes.empty());
}

// TestTranslatePortworxInTreePVToCSI.
TEST(TestTranslatePortworxInTreePVToCSI, HandleAndKeptFields) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::PortworxVolumeSource v;
    v.volume_id = "ID1111";
    v.fs_type = "type";
    return v;
  }());
  pv.spec.access_modes = {"ReadWriteOnce"};
  pv.spec.claim_ref = [&] {
    kube::ClaimReference v;
    v.namespace_ = "ns";
    v.name = "claim";
    return v;
  }();
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok());
  EXPECT_EQ(std::get<kube::CSIPersistentVolumeSource>(translated->spec.source), ([&] {
              kube::CSIPersistentVolumeSource v;
              v.driver = "pxd.portworx.com";
              v.volume_handle = "ID1111";
              v.fs_type = "type";
              return v;
            }()));
  EXPECT_EQ(translated->spec.access_modes, pv.spec.access_modes);
  EXPECT_EQ(translated->spec.claim_ref, pv.spec.claim_ref);
}

TEST(TestTranslatePortworxInTreePVToCSI, AuthSecretNeedsBothAnnotations) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::PortworxVolumeSource v;
    v.volume_id = "ID1111";
    return v;
  }());
  pv.metadata.annotations = {{"openstorage.io/auth-secret-name", "test-secret"}};
  auto one = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(
      std::get<kube::CSIPersistentVolumeSource>(one->spec.source).controller_publish_secret_ref);
  pv.metadata.annotations["openstorage.io/auth-secret-namespace"] = "test-namespace";
  auto both = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(
      std::get<kube::CSIPersistentVolumeSource>(both->spec.source).controller_publish_secret_ref,
      (kube::SecretReference{"test-secret", "test-namespace"}));
}

}  // namespace
}  // namespace migration
