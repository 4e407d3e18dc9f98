#include "kube/api/interned_string.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "kube/api/codec.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

using ::testing::ElementsAre;

TEST(InternedString, DefaultAndEmptyTextAreTheEmptyStringOutsideThePool) {
  size_t pooled = InternedString::PooledCount();
  InternedString none;
  InternedString empty(std::string_view{});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none, empty);
  EXPECT_EQ(none.str(), "");
  EXPECT_EQ(InternedString::PooledCount(), pooled);
}

TEST(InternedString, EqualTextsShareOneEntry) {
  size_t pooled = InternedString::PooledCount();
  InternedString a = "test.example.com/share-one-entry";
  InternedString b = std::string("test.example.com/share-one-entry");
  EXPECT_EQ(&a.str(), &b.str());
  EXPECT_EQ(a, b);
  EXPECT_EQ(InternedString::PooledCount(), pooled + 1);
  InternedString c = "test.example.com/another";
  EXPECT_NE(a, c);
  EXPECT_EQ(InternedString::PooledCount(), pooled + 2);
}

TEST(InternedString, TheLastHolderTakesTheTextOutOfThePool) {
  size_t pooled = InternedString::PooledCount();
  {
    InternedString a = "test.example.com/last-holder";
    {
      InternedString copy = a;
      InternedString again = "test.example.com/last-holder";
      EXPECT_EQ(InternedString::PooledCount(), pooled + 1);
    }
    EXPECT_EQ(InternedString::PooledCount(), pooled + 1);
    EXPECT_EQ(a, "test.example.com/last-holder");
  }
  EXPECT_EQ(InternedString::PooledCount(), pooled);
}

TEST(InternedString, CopiesMovesAndAssignmentsKeepTheirTexts) {
  size_t pooled = InternedString::PooledCount();
  {
    InternedString a = "test.example.com/a";
    InternedString b = "test.example.com/b";
    InternedString copy = a;
    copy = b;
    EXPECT_EQ(copy, "test.example.com/b");
    EXPECT_EQ(a, "test.example.com/a");
    InternedString moved = std::move(a);
    EXPECT_EQ(moved, "test.example.com/a");
    moved = std::move(b);
    EXPECT_EQ(moved, "test.example.com/b");
    const InternedString& self = moved;
    moved = self;
    EXPECT_EQ(moved, "test.example.com/b");
  }
  EXPECT_EQ(InternedString::PooledCount(), pooled);
}

TEST(InternedString, ComparesAndConvertsLikeAString) {
  InternedString text = "test.example.com/x";
  EXPECT_EQ(text, "test.example.com/x");
  EXPECT_EQ("test.example.com/x", text);
  EXPECT_EQ(text, std::string("test.example.com/x"));
  EXPECT_EQ(text, std::string_view("test.example.com/x"));
  EXPECT_NE(text, "test.example.com/y");
  const std::string& as_string = text;
  std::string_view as_view = text;
  EXPECT_EQ(as_string, as_view);
  EXPECT_EQ(text.size(), as_view.size());
  std::ostringstream printed;
  printed << text;
  EXPECT_EQ(printed.str(), "test.example.com/x");
  EXPECT_EQ(nlohmann::json(std::vector<InternedString>{text}),
            nlohmann::json::parse(R"(["test.example.com/x"])"));
}

// Each thread interns and drops the same texts; the pool ends as it began.
TEST(InternedString, ThreadsInterningAndDroppingTheSameTextsLeaveThePoolConsistent) {
  size_t pooled = InternedString::PooledCount();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 20000; ++i) {
        InternedString a = "test.example.com/contended";
        InternedString b = a;
        InternedString c = std::string("test.example.com/contended-") + std::to_string(i % 3);
        if (a != b || c.str().rfind("test.example.com/contended-", 0) != 0) std::abort();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(InternedString::PooledCount(), pooled);
}

TEST(InternedStringCodec, FinalizersOfDecodedObjectsShareTheirTextInBothCodecs) {
  constexpr std::string_view kVa =
      R"({"metadata": {"name": "va", "finalizers": ["test.example.com/codec", ""]}})";
  auto stream = DecodeObject<VolumeAttachment>(kVa);
  auto dom = ObjectFromJson<VolumeAttachment>(nlohmann::json::parse(kVa));
  ASSERT_TRUE(stream.ok()) << stream.error().message;
  ASSERT_TRUE(dom.ok()) << dom.error().message;
  EXPECT_THAT(stream->metadata.finalizers, ElementsAre("test.example.com/codec", ""));
  EXPECT_EQ(*stream, *dom);
  EXPECT_EQ(&stream->metadata.finalizers[0].str(), &dom->metadata.finalizers[0].str());
}

TEST(InternedStringCodec, FinalizersRoundTripAndAWrongTypeNamesThePath) {
  PersistentVolume pv;
  pv.metadata.name = "pv";
  pv.metadata.finalizers = {"kubernetes.io/pv-protection", "test.example.com/round-trip"};
  auto again = DecodeObject<PersistentVolume>(EncodeObject(pv));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->metadata.finalizers, pv.metadata.finalizers);

  constexpr std::string_view kWrong = R"({"metadata": {"finalizers": [7]}})";
  auto stream = DecodeObject<PersistentVolume>(kWrong);
  auto dom = ObjectFromJson<PersistentVolume>(nlohmann::json::parse(kWrong));
  ASSERT_FALSE(stream.ok());
  ASSERT_FALSE(dom.ok());
  EXPECT_NE(stream.error().message.find("metadata.finalizers[0]"), std::string::npos)
      << stream.error().message;
  EXPECT_EQ(stream.error().message, dom.error().message);
}

}  // namespace
}  // namespace kube
