#include "base/ascii.h"

#include <gtest/gtest.h>

namespace base {
namespace {

TEST(TrimSpaceTest, StripsSurroundingWhitespaceOnly) {
  EXPECT_EQ(TrimSpace(" \t token value\r\n"), "token value");
  EXPECT_EQ(TrimSpace("plain"), "plain");
  EXPECT_EQ(TrimSpace(" \n\t "), "");
  EXPECT_EQ(TrimSpace(""), "");
}

TEST(TrimOptionalWhitespaceTest, StripsSpacesAndTabsButNotNewlines) {
  EXPECT_EQ(TrimOptionalWhitespace(" \tgzip, br\t "), "gzip, br");
  EXPECT_EQ(TrimOptionalWhitespace("\nvalue\n"), "\nvalue\n");
  EXPECT_EQ(TrimOptionalWhitespace("  "), "");
}

TEST(AsciiLowerTest, LowersAsciiLettersOnly) {
  EXPECT_EQ(AsciiLower("Content-Type: X9"), "content-type: x9");
  EXPECT_EQ(AsciiLower("\xC3\x84"), "\xC3\x84");
}

TEST(IsAsciiDigitTest, OnlyZeroToNine) {
  EXPECT_TRUE(IsAsciiDigit('0'));
  EXPECT_TRUE(IsAsciiDigit('9'));
  EXPECT_FALSE(IsAsciiDigit('a'));
  EXPECT_FALSE(IsAsciiDigit('\xB2'));
}

}  // namespace
}  // namespace base
