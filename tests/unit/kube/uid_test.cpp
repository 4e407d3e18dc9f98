// Uids: the API server's UUIDs kept as 16 bytes, any other text as written.
#include "kube/api/uid.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "kube/api/codec.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace kube {
namespace {

constexpr std::string_view kServerUid = "6ba7b810-9dad-41d1-80b4-00c04fd430c8";

// The point of the type: a cached uid costs 16 bytes and no heap block,
// where its text took a 32-byte string and 48 bytes of heap.
TEST(UidTest, TakesSixteenBytesWhereItsTextTookAStringAndAHeapBlock) {
  EXPECT_EQ(sizeof(Uid), 16u);
}

TEST(UidTest, ReadsBackTheTextItWasGiven) {
  for (std::string_view text :
       {kServerUid, std::string_view("00000000-0000-0000-0000-000000000000"),
        std::string_view("6BA7B810-9DAD-41D1-80B4-00C04FD430C8"),  // upper case
        std::string_view("6ba7b810-9dad-41d1-c0b4-00c04fd430c8"),  // not RFC 4122's variant
        std::string_view("6ba7b810-9dad-41d1-80b4-00c04fd430c"),   // one digit short
        std::string_view("6ba7b810x9dad-41d1-80b4-00c04fd430c8"),  // not a dash
        std::string_view("uid-1"), std::string_view("ffffffff-ffff-ffff-bfff-ffffffffffff")}) {
    Uid uid(text);
    EXPECT_FALSE(uid.empty()) << text;
    EXPECT_EQ(uid.str(), text);
    EXPECT_EQ(uid, text);
  }
}

TEST(UidTest, EmptyUntilSet) {
  Uid uid;
  EXPECT_TRUE(uid.empty());
  EXPECT_EQ(uid.str(), "");
  EXPECT_EQ(uid, "");
  uid = "uid-1";
  EXPECT_FALSE(uid.empty());
  EXPECT_NE(uid, "");
  uid.clear();
  EXPECT_TRUE(uid.empty());
  EXPECT_EQ(Uid(""), Uid());
}

TEST(UidTest, ComparesAsItsText) {
  EXPECT_EQ(Uid(kServerUid), Uid(std::string(kServerUid)));
  EXPECT_NE(Uid(kServerUid), Uid("6ba7b810-9dad-41d1-80b4-00c04fd430c9"));
  EXPECT_NE(Uid(kServerUid), Uid("6BA7B810-9DAD-41D1-80B4-00C04FD430C8"));
  EXPECT_NE(Uid(kServerUid), Uid("uid-1"));
  EXPECT_EQ(Uid("uid-1"), Uid("uid-1"));
  EXPECT_NE(Uid("uid-1"), Uid("uid-2"));
  EXPECT_NE(Uid("uid-1"), Uid());
}

// Copies own their text; a moved-from Uid is empty.
TEST(UidTest, CopiesAndMovesKeepTheText) {
  for (std::string_view text : {kServerUid, std::string_view("uid-1")}) {
    Uid original(text);
    Uid copy = original;
    EXPECT_EQ(copy, original);
    Uid assigned("other");
    assigned = copy;
    copy.clear();
    EXPECT_EQ(assigned.str(), text);
    EXPECT_EQ(original.str(), text);
    Uid moved = std::move(original);
    EXPECT_EQ(moved.str(), text);
    EXPECT_TRUE(original.empty());  // NOLINT(bugprone-use-after-move): defined state
    Uid target("uid-2");
    target = std::move(moved);
    EXPECT_EQ(target.str(), text);
    target = target;  // NOLINT: self-assignment keeps the value
    EXPECT_EQ(target.str(), text);
  }
}

// Every uid of an object goes through the codecs: metadata's, a reference's
// and a claim reference's, in both directions.
TEST(UidTest, CodecsReadAndWriteUids) {
  auto content = DecodeObject<VolumeSnapshotContent>(
      R"({"metadata":{"name":"c","uid":"6ba7b810-9dad-41d1-80b4-00c04fd430c8"},)"
      R"("spec":{"volumeSnapshotRef":{"name":"s","uid":"uid-1"}}})");
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->metadata.uid, kServerUid);
  EXPECT_EQ(content->spec.volume_snapshot_ref.uid, "uid-1");
  std::string encoded = EncodeObject(*content);
  EXPECT_NE(encoded.find(R"("uid":"6ba7b810-9dad-41d1-80b4-00c04fd430c8")"), std::string::npos)
      << encoded;
  EXPECT_NE(encoded.find(R"("uid":"uid-1")"), std::string::npos) << encoded;

  auto volume = DecodeObject<PersistentVolume>(
      R"({"metadata":{"name":"pv"},"spec":{"claimRef":)"
      R"({"name":"c","uid":"6ba7b810-9dad-41d1-80b4-00c04fd430c8"}}})");
  ASSERT_TRUE(volume.ok()) << volume.error().message;
  ASSERT_TRUE(volume->spec.claim_ref.has_value());
  EXPECT_EQ(volume->spec.claim_ref->uid, kServerUid);

  auto wrong_type = DecodeObject<VolumeSnapshotContent>(R"({"metadata":{"name":"c","uid":7}})");
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.error().message.find("metadata.uid"), std::string::npos)
      << wrong_type.error().message;
}

}  // namespace
}  // namespace kube
