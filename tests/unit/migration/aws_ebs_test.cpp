// plugins/aws_ebs_test.go of csi-translation-lib (docs/migration.md §5 and §2.2).
#include "migration/aws_ebs.h"

#include <gtest/gtest.h>

#include "migration/translate.h"
#include "test_pvs.h"

namespace migration {
namespace {

using ::migration::testing::PvWith;

struct VolumeIdCase {
  std::string name;
  std::string kubernetes_id;
  std::string want;        // the EBS volume ID, if no error
  std::string want_error;  // empty: success
};

class EbsVolumeIdOfTest : public ::testing::TestWithParam<VolumeIdCase> {};

TEST_P(EbsVolumeIdOfTest, Converts) {
  const VolumeIdCase& c = GetParam();
  auto converted = EbsVolumeIdOf(c.kubernetes_id);
  if (!c.want_error.empty()) {
    ASSERT_FALSE(converted.ok()) << *converted;
    EXPECT_EQ(converted.error().message, c.want_error);
    return;
  }
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  EXPECT_EQ(*converted, c.want);
}

// The first four rows are TestKubernetesVolumeIDToEBSVolumeID.
INSTANTIATE_TEST_SUITE_P(
    TestKubernetesVolumeIDToEBSVolumeID, EbsVolumeIdOfTest,
    ::testing::Values(
        VolumeIdCase{"BareVolumeId", "vol-02399794d890f9375", "vol-02399794d890f9375", ""},
        VolumeIdCase{"UrlWithoutZone", "aws:///vol-02399794d890f9375", "vol-02399794d890f9375", ""},
        VolumeIdCase{"UrlWithZone", "aws://us-west-2a/vol-02399794d890f9375",
                     "vol-02399794d890f9375", ""},
        VolumeIdCase{"UrlWithoutVolPrefixFails", "aws://us-west-2a/02399794d890f9375", "",
                     "Invalid format for AWS volume (aws://us-west-2a/02399794d890f9375)"},
        VolumeIdCase{"IdWithoutAwsPrefixIsNotValidated", "vol01", "vol01", ""},
        VolumeIdCase{"SlashesAroundThePathAreTrimmed", "aws://z//vol-1//", "vol-1", ""},
        VolumeIdCase{"PathIsPercentDecoded", "aws://z/vol-%41", "vol-A", ""},
        VolumeIdCase{"QueryAndFragmentAreNotPath", "aws://z/vol-1?x=1#frag", "vol-1", ""},
        VolumeIdCase{"PathWithTwoElementsFails", "aws://us-west-2a/x/vol-1", "",
                     "Invalid format for AWS volume (aws://us-west-2a/x/vol-1)"},
        VolumeIdCase{"NoPathFails", "aws://vol-1", "",
                     "Invalid format for AWS volume (aws://vol-1)"},
        VolumeIdCase{"BadEscapeIsAnInvalidDiskName", "aws://z/vol-%zz", "",
                     R"(Invalid disk name (aws://z/vol-%zz): parse "aws://z/vol-%zz": )"
                     R"(invalid URL escape "%zz")"},
        VolumeIdCase{"BadPortIsAnInvalidDiskName", "aws://z:a/vol-1", "",
                     R"(Invalid disk name (aws://z:a/vol-1): parse "aws://z:a/vol-1": )"
                     R"(invalid port ":a" after host)"}),
    [](const auto& info) { return info.param.name; });

kube::PersistentVolume EbsPv(std::string volume_id) {
  return PvWith([&] {
    kube::AWSElasticBlockStoreVolumeSource v;
    v.volume_id = std::move(volume_id);
    v.fs_type = "xfs";
    return v;
  }());
}

TEST(TranslateAwsEbsTest, BadVolumeIdFailsTheTranslation) {
  auto translated = TranslateInTreePvToCsi(EbsPv("aws://us-west-2a/x/vol-1"));
  ASSERT_FALSE(translated.ok());
  EXPECT_EQ(translated.error().message,
            "failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
            "(aws://us-west-2a/x/vol-1)");
}

TEST(TranslateAwsEbsTest, UrlIdZeroPartitionAndUnchangedAccessModes) {
  kube::PersistentVolume pv = EbsPv("aws://us-west-2a/vol-02399794d890f9375");
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
