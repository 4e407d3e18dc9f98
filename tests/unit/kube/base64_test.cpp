#include "kube/api/base64.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kube {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Base64Test, DecodesPaddedInput) {
  EXPECT_EQ(*DecodeBase64("aGVsbG8="), "hello");
  EXPECT_EQ(*DecodeBase64("aGk="), "hi");
  EXPECT_EQ(*DecodeBase64("aA=="), "h");
  EXPECT_EQ(*DecodeBase64("aGV5"), "hey");
  EXPECT_EQ(*DecodeBase64(""), "");
}

TEST(Base64Test, DecodesBinaryBytesWithFullAlphabet) {
  EXPECT_EQ(*DecodeBase64("+/8A"), std::string("\xfb\xff\x00", 3));
}

TEST(Base64Test, IgnoresLineBreaksLikeGo) {
  EXPECT_EQ(*DecodeBase64("aGVs\r\nbG8=\n"), "hello");
  EXPECT_EQ(*DecodeBase64("aA=\n="), "h");
}

TEST(Base64Test, RejectsCharactersOutsideTheAlphabetAtTheirOffset) {
  auto result = DecodeBase64("aGV*bG8=");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "illegal base64 data at input byte 3");
  EXPECT_FALSE(DecodeBase64("aGVs bG8=").ok());
  EXPECT_FALSE(DecodeBase64("aGVs-G8=").ok()) << "URL alphabet is not accepted";
}

TEST(Base64Test, RequiresPadding) {
  EXPECT_FALSE(DecodeBase64("aGk").ok());
  EXPECT_FALSE(DecodeBase64("aA").ok());
  EXPECT_FALSE(DecodeBase64("aA=").ok());
  EXPECT_FALSE(DecodeBase64("a").ok());
}

TEST(Base64Test, RejectsMisplacedPadding) {
  EXPECT_FALSE(DecodeBase64("a===").ok());
  EXPECT_FALSE(DecodeBase64("====").ok());
  EXPECT_FALSE(DecodeBase64("aGk=aGk=").ok()) << "data after padding";
  EXPECT_FALSE(DecodeBase64("aGk==").ok()) << "too much padding";
}

TEST(Base64Test, ErrorNeverQuotesTheInput) {
  auto result = DecodeBase64("c2VjcmV0!");
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.error().message, Not(HasSubstr("c2VjcmV0")));
}

TEST(Base64Test, EncodesWithPadding) {
  EXPECT_EQ(EncodeBase64(""), "");
  EXPECT_EQ(EncodeBase64("h"), "aA==");
  EXPECT_EQ(EncodeBase64("hi"), "aGk=");
  EXPECT_EQ(EncodeBase64("hey"), "aGV5");
  EXPECT_EQ(EncodeBase64(std::string("\xfb\xff\x00", 3)), "+/8A");
}

TEST(Base64Test, RoundTripsEveryByteValueAtEveryTailLength) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t len = 250; len <= 256; ++len) {
    std::string data = all.substr(0, len);
    EXPECT_EQ(*DecodeBase64(EncodeBase64(data)), data) << "length " << len;
  }
}

}  // namespace
}  // namespace kube
