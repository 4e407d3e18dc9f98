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
#include <variant>
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

// Both codecs reject `json` with the same message, which names `path`.
template <class T>
void ExpectBothCodecsRejectNaming(std::string_view json, std::string_view path) {
  auto stream = DecodeObject<T>(json);
  auto dom = ObjectFromJson<T>(nlohmann::json::parse(json));
  ASSERT_FALSE(stream.ok());
  ASSERT_FALSE(dom.ok());
  EXPECT_NE(stream.error().message.find(path), std::string::npos) << stream.error().message;
  EXPECT_EQ(stream.error().message, dom.error().message);
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

  ExpectBothCodecsRejectNaming<PersistentVolume>(R"({"metadata": {"finalizers": [7]}})",
                                                 "metadata.finalizers[0]");
}

// `json` decoded by the stream codec and by the DOM codec; either failing
// fails the test (and yields an empty object).
template <class T>
std::pair<T, T> DecodedByBothCodecs(std::string_view json) {
  auto stream = DecodeObject<T>(json);
  auto dom = ObjectFromJson<T>(nlohmann::json::parse(json));
  EXPECT_TRUE(stream.ok()) << stream.error().message;
  EXPECT_TRUE(dom.ok()) << dom.error().message;
  return {stream.ok() ? *stream : T{}, dom.ok() ? *dom : T{}};
}

// The spec strings every cached VolumeAttachment and PersistentVolume repeat
// (docs/design.md §4) decode to the same values through both codecs, share
// their text with any other object that holds it, and encode back as they came.
TEST(InternedStringCodec, RepeatedSpecStringsShareTheirTextAndRoundTripInBothCodecs) {
  auto [va, va_dom] = DecodedByBothCodecs<VolumeAttachment>(
      R"({"metadata": {"name": "va"}, "spec": {"attacher": "test.example.com/spec-driver",
          "nodeName": "test-node-with-a-long-name-1", "source": {"persistentVolumeName": "pv"}}})");
  EXPECT_EQ(va.spec.attacher, "test.example.com/spec-driver");
  EXPECT_EQ(va.spec.node_name, "test-node-with-a-long-name-1");
  EXPECT_EQ(va, va_dom);
  EXPECT_EQ(&va.spec.attacher.str(), &va_dom.spec.attacher.str());
  EXPECT_EQ(&va.spec.node_name.str(), &va_dom.spec.node_name.str());

  auto [pv, pv_dom] = DecodedByBothCodecs<PersistentVolume>(R"({"metadata": {"name": "pv"},
      "spec": {"capacity": {"storage": "17Gi"}, "volumeMode": "Block",
      "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "test-spec-class",
      "csi": {"driver": "test.example.com/spec-driver", "volumeHandle": "h", "fsType": "xfs"}}})");
  EXPECT_EQ(pv.spec.capacity_storage, "17Gi");
  EXPECT_EQ(pv.spec.volume_mode, "Block");
  EXPECT_EQ(pv.spec.persistent_volume_reclaim_policy, "Retain");
  EXPECT_EQ(pv.spec.storage_class_name, "test-spec-class");
  const auto* csi = std::get_if<CSIPersistentVolumeSource>(&pv.spec.source);
  ASSERT_NE(csi, nullptr);
  EXPECT_EQ(csi->driver, "test.example.com/spec-driver");
  EXPECT_EQ(csi->fs_type, "xfs");
  EXPECT_EQ(pv, pv_dom);
  // The PV's driver is the VA's attacher: one pooled text for both.
  EXPECT_EQ(&csi->driver.str(), &va.spec.attacher.str());

  auto va_json = nlohmann::json::parse(EncodeObject(va));
  EXPECT_EQ(va_json["spec"]["attacher"], "test.example.com/spec-driver") << va_json;
  EXPECT_EQ(va_json["spec"]["nodeName"], "test-node-with-a-long-name-1") << va_json;
  auto pv_json = nlohmann::json::parse(EncodeObject(pv));
  EXPECT_EQ(pv_json["spec"]["capacity"]["storage"], "17Gi") << pv_json;
  EXPECT_EQ(pv_json["spec"]["volumeMode"], "Block") << pv_json;
  EXPECT_EQ(pv_json["spec"]["persistentVolumeReclaimPolicy"], "Retain") << pv_json;
  EXPECT_EQ(pv_json["spec"]["storageClassName"], "test-spec-class") << pv_json;
  EXPECT_EQ(pv_json["spec"]["csi"]["driver"], "test.example.com/spec-driver") << pv_json;
  EXPECT_EQ(pv_json["spec"]["csi"]["fsType"], "xfs") << pv_json;
  EXPECT_EQ(DecodedByBothCodecs<VolumeAttachment>(va_json.dump()).first, va);
  EXPECT_EQ(DecodedByBothCodecs<PersistentVolume>(pv_json.dump()).second, pv);
}

// Empty interned members follow the same omitempty rules as strings: left
// out, except the CSI driver, which the API always writes.
TEST(InternedStringCodec, EmptySpecStringsAreOmittedExceptTheAlwaysWrittenDriver) {
  PersistentVolume pv;
  pv.metadata.name = "pv";
  pv.spec.source = CSIPersistentVolumeSource{};
  auto json = nlohmann::json::parse(EncodeObject(pv));
  EXPECT_FALSE(json["spec"].contains("volumeMode")) << json;
  EXPECT_FALSE(json["spec"].contains("storageClassName")) << json;
  EXPECT_FALSE(json["spec"]["csi"].contains("fsType")) << json;
  EXPECT_EQ(json["spec"]["csi"]["driver"], "") << json;
}

TEST(InternedStringCodec, ASpecStringOfTheWrongTypeNamesThePathInBothCodecs) {
  ExpectBothCodecsRejectNaming<VolumeAttachment>(R"({"spec": {"attacher": "d", "nodeName": 7}})",
                                                 "spec.nodeName");
}

}  // namespace
}  // namespace kube
