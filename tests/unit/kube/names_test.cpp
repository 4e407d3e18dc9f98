#include "kube/api/names.h"

#include <gtest/gtest.h>

namespace kube {
namespace {

TEST(Names, SanitizeKeepsAlphanumericsAndDashes) {
  EXPECT_EQ(SanitizeName("Abc-123"), "Abc-123");
  EXPECT_EQ(SanitizeName("x-"), "x-X");
  EXPECT_EQ(SanitizeName("é"), "--X");
}

TEST(Names, Dns1123LabelIsLowerAlphanumericWithInnerDashesUpTo63) {
  EXPECT_TRUE(IsDns1123Label("kube-system"));
  EXPECT_TRUE(IsDns1123Label("0"));
  EXPECT_TRUE(IsDns1123Label(std::string(63, 'a')));
  EXPECT_FALSE(IsDns1123Label(std::string(64, 'a')));
  EXPECT_FALSE(IsDns1123Label(""));
  EXPECT_FALSE(IsDns1123Label("-a"));
  EXPECT_FALSE(IsDns1123Label("a-"));
  EXPECT_FALSE(IsDns1123Label("Default"));
  EXPECT_FALSE(IsDns1123Label("a.b"));
  EXPECT_FALSE(IsDns1123Label("${volumesnapshotcontent.name}"));
}

TEST(Names, Dns1123SubdomainIsDotSeparatedLabelsUpTo253) {
  EXPECT_TRUE(IsDns1123Subdomain("creds"));
  EXPECT_TRUE(IsDns1123Subdomain("snapcontent-1.creds"));
  EXPECT_TRUE(IsDns1123Subdomain(std::string(253, 'a')));
  EXPECT_FALSE(IsDns1123Subdomain(std::string(254, 'a')));
  EXPECT_FALSE(IsDns1123Subdomain(""));
  EXPECT_FALSE(IsDns1123Subdomain("a..b"));
  EXPECT_FALSE(IsDns1123Subdomain(".a"));
  EXPECT_FALSE(IsDns1123Subdomain("a."));
  EXPECT_FALSE(IsDns1123Subdomain("a_b"));
  EXPECT_FALSE(IsDns1123Subdomain("a.-b"));
}

}  // namespace
}  // namespace kube
