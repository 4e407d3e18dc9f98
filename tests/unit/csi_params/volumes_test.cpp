// csi_params/volumes.h: a PV's CSI source and its binding to a claim.
#include "csi_params/volumes.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace csi_params {
namespace {

kube::PersistentVolumeClaim Claim() {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = "team-a";
  claim.metadata.name = "data";
  claim.metadata.uid = "uid-data";
  return claim;
}

kube::PersistentVolume VolumeClaimedBy(std::string ns, std::string name, std::string uid) {
  kube::PersistentVolume volume;
  volume.metadata.name = "pv-1";
  volume.spec.claim_ref.emplace();
  volume.spec.claim_ref->namespace_ = std::move(ns);
  volume.spec.claim_ref->name = std::move(name);
  volume.spec.claim_ref->uid = std::move(uid);
  return volume;
}

TEST(CsiSourceOf, OnlyACsiSource) {
  kube::PersistentVolume volume;
  EXPECT_EQ(CsiSourceOf(volume), nullptr);
  volume.spec.source = kube::CSIPersistentVolumeSource{.driver = "hostpath.csi.k8s.io",
                                                       .volume_handle = "vol-1",
                                                       .fs_type = {},
                                                       .read_only = false,
                                                       .volume_attributes = {},
                                                       .controller_publish_secret_ref = {}};
  ASSERT_NE(CsiSourceOf(volume), nullptr);
  EXPECT_EQ(CsiSourceOf(volume)->volume_handle, "vol-1");
}

TEST(IsVolumeBoundToClaim, NameNamespaceAndTheUidWhenRecorded) {
  EXPECT_TRUE(IsVolumeBoundToClaim(VolumeClaimedBy("team-a", "data", "uid-data"), Claim()));
  EXPECT_TRUE(IsVolumeBoundToClaim(VolumeClaimedBy("team-a", "data", ""), Claim()));  // pre-bound
  EXPECT_FALSE(IsVolumeBoundToClaim(VolumeClaimedBy("team-a", "data", "uid-old"), Claim()));
  EXPECT_FALSE(IsVolumeBoundToClaim(VolumeClaimedBy("team-b", "data", ""), Claim()));
  EXPECT_FALSE(IsVolumeBoundToClaim(VolumeClaimedBy("team-a", "logs", ""), Claim()));
  EXPECT_FALSE(IsVolumeBoundToClaim(kube::PersistentVolume{}, Claim()));  // no claimRef
}

}  // namespace
}  // namespace csi_params
