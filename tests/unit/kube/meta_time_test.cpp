// metav1.Time and MicroTime as the API server writes them.
#include "kube/api/meta_time.h"

#include <gtest/gtest.h>

namespace kube {
namespace {

using std::chrono::system_clock;

TEST(ParseMetaTimeTest, ParsesUtcFractionsAndOffsets) {
  auto t = ParseMetaTime("2026-11-22T14:12:40Z");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(system_clock::to_time_t(*t), 1795356760);
  EXPECT_EQ(ParseMetaTime("2026-11-22T15:12:40+01:00"), t);
  auto fraction = ParseMetaTime("2026-11-22T14:12:40.5Z");
  ASSERT_TRUE(fraction.has_value());
  EXPECT_EQ(*fraction - *t, std::chrono::milliseconds(500));
  EXPECT_FALSE(ParseMetaTime("").has_value());
  EXPECT_FALSE(ParseMetaTime("2026-11-22 14:12:40Z").has_value());
  EXPECT_FALSE(ParseMetaTime("2026-13-22T14:12:40Z").has_value());
}

TEST(FormatMetaTimeTest, UtcToTheSecond) {
  EXPECT_EQ(FormatMetaTime(system_clock::from_time_t(1795356760)), "2026-11-22T14:12:40Z");
}

TEST(FormatMicroTimeTest, UtcWithSixFractionalDigits) {
  auto t = std::chrono::system_clock::time_point(std::chrono::microseconds(1700000000123456));
  EXPECT_EQ(FormatMicroTime(t), "2023-11-14T22:13:20.123456Z");
}

}  // namespace
}  // namespace kube
