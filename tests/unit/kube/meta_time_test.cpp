// metav1.Time and MicroTime as the API server writes them.
#include "kube/api/meta_time.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "kube/api/codec.h"
#include "kube/api/storage/v1/volume_attachment.h"

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

// The point of the type: a cached object's timestamps cost 8 bytes each.
TEST(MetaTimeTest, TakesEightBytesWhereItsTextTookAString) {
  EXPECT_EQ(sizeof(MetaTime), 8u);
  EXPECT_LT(sizeof(MetaTime), sizeof(std::string));
}

TEST(MetaTimeTest, EmptyUntilSetAndComparesWithText) {
  MetaTime time;
  EXPECT_TRUE(time.empty());
  EXPECT_EQ(time, "");
  EXPECT_EQ(time.str(), "");
  time = "2026-11-22T14:12:40Z";
  EXPECT_FALSE(time.empty());
  EXPECT_EQ(time.unix_seconds(), 1795356760);
  EXPECT_EQ(time, "2026-11-22T14:12:40Z");
  EXPECT_NE(time, "2026-11-22T14:12:41Z");
  EXPECT_NE(time, "");
  time.clear();
  EXPECT_TRUE(time.empty());
}

// Fractions and offsets are read as Go reads them, and written back the way
// the JSON form has them: UTC, whole seconds.
TEST(MetaTimeTest, KeepsWholeSecondsInUtc) {
  EXPECT_EQ(MetaTime::Parse("2026-11-22T15:12:40.999+01:00")->str(), "2026-11-22T14:12:40Z");
  EXPECT_EQ(MetaTime::Parse("0001-01-01T00:00:00Z")->str(), "0001-01-01T00:00:00Z");
  EXPECT_EQ(MetaTime::Parse("9999-12-31T23:59:59Z")->str(), "9999-12-31T23:59:59Z");
  EXPECT_EQ(MetaTime::Parse("1969-12-31T23:59:59Z")->unix_seconds(), -1);
}

TEST(MetaTimeTest, MalformedTextIsRefused) {
  EXPECT_FALSE(MetaTime::Parse("yesterday").has_value());
  EXPECT_FALSE(MetaTime::Parse("2026-13-01T00:00:00Z").has_value());
  MetaTime time;
  EXPECT_THROW(time = "yesterday", std::invalid_argument);
  EXPECT_TRUE(time.empty());
}

// A malformed timestamp fails the object's decoding with the field's path,
// as Go's metav1.Time refuses it; an absent or null one decodes empty and
// is not written back.
TEST(MetaTimeTest, CodecsReadWriteAndRefuseTimestamps) {
  auto decoded = DecodeObject<VolumeAttachment>(
      R"({"metadata":{"name":"va","creationTimestamp":"2024-05-01T12:00:00+02:00",)"
      R"("deletionTimestamp":null}})");
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->metadata.creation_timestamp, "2024-05-01T10:00:00Z");
  EXPECT_TRUE(decoded->metadata.deletion_timestamp.empty());
  std::string encoded = EncodeObject(*decoded);
  EXPECT_NE(encoded.find(R"("creationTimestamp":"2024-05-01T10:00:00Z")"), std::string::npos)
      << encoded;
  EXPECT_EQ(encoded.find("deletionTimestamp"), std::string::npos) << encoded;

  auto malformed =
      DecodeObject<VolumeAttachment>(R"({"metadata":{"name":"va","deletionTimestamp":"soon"}})");
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.error().message.find("metadata.deletionTimestamp"), std::string::npos)
      << malformed.error().message;
  EXPECT_NE(malformed.error().message.find("not an RFC 3339 time"), std::string::npos)
      << malformed.error().message;
}

}  // namespace
}  // namespace kube
