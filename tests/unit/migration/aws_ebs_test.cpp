// plugins/aws_ebs_test.go of csi-translation-lib (MIGRATION.md §5 and §2.2).
#include "migration/aws_ebs.h"

#include <gtest/gtest.h>

#include "migration/translate.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::PvWith;

// TestKubernetesVolumeIDToEBSVolumeID.
TEST(EbsVolumeIdOfTest, Conversions) {
  for (const std::string id : {"vol-02399794d890f9375", "aws:///vol-02399794d890f9375",
                               "aws://us-west-2a/vol-02399794d890f9375"}) {
    auto converted = EbsVolumeIdOf(id);
    ASSERT_TRUE(converted.ok()) << id;
    EXPECT_EQ(*converted, "vol-02399794d890f9375") << id;
  }
  auto bare = EbsVolumeIdOf("vol01");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(*bare, "vol01");
  auto bad = EbsVolumeIdOf("aws://us-west-2a/02399794d890f9375");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "Invalid format for AWS volume (aws://us-west-2a/02399794d890f9375)");
}

TEST(TranslateAwsEbsTest, BadVolumeId) {
  auto translated = TranslateInTreePvToCsi(PvWith([&] {
    kube::AWSElasticBlockStoreVolumeSource v;
    v.volume_id = "aws://us-west-2a/x/vol-1";
    return v;
  }()));
  ASSERT_FALSE(translated.ok());
  EXPECT_EQ(translated.error().message,
            "failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
            "(aws://us-west-2a/x/vol-1)");
}

TEST(TranslateAwsEbsTest, TranslatesUrlIdAndZeroPartition) {
  kube::PersistentVolume pv = PvWith([&] {
    kube::AWSElasticBlockStoreVolumeSource v;
    v.volume_id = "aws://us-west-2a/vol-02399794d890f9375";
    v.fs_type = "xfs";
    return v;
  }());
  pv.spec.access_modes = {"ReadWriteMany"};
  auto translated = TranslateInTreePvToCsi(pv);
  ASSERT_TRUE(translated.ok()) << translated.error().message;
  const auto& csi = std::get<kube::CSIPersistentVolumeSource>(translated->spec.source);
  EXPECT_EQ(csi.driver, "ebs.csi.aws.com");
  EXPECT_EQ(csi.volume_handle, "vol-02399794d890f9375");
  EXPECT_EQ(csi.fs_type, "xfs");
  EXPECT_EQ(csi.volume_attributes, (kube::StringMap{{"partition", "0"}}));
  EXPECT_EQ(translated->spec.access_modes, pv.spec.access_modes);
}

}  // namespace
}  // namespace migration
