#include "kube/api/heap_optional.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "kube/api/codec.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

struct BoxedValue {
  std::string name;
  int32_t n = 0;

  bool operator==(const BoxedValue&) const = default;

  static constexpr auto Fields() {
    return std::tuple{Field("name", &BoxedValue::name), Field("n", &BoxedValue::n)};
  }
};

struct BoxHolder {
  HeapOptional<BoxedValue> omitted;
  HeapOptional<BoxedValue> always;

  bool operator==(const BoxHolder&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("omitted", &BoxHolder::omitted),
        Field("always", &BoxHolder::always, Emit::kAlways),
    };
  }
};

BoxHolder HolderFromStream(std::string_view text) {
  BoxHolder out;
  codec_internal::ReadText(text, out);
  return out;
}

BoxHolder HolderFromDom(std::string_view text) {
  BoxHolder out;
  codec_internal::DecodeValue(nlohmann::json::parse(text), out);
  return out;
}

nlohmann::json EncodedHolder(const BoxHolder& holder) {
  nlohmann::json out;
  codec_internal::EncodeValue(out, holder);
  return out;
}

TEST(HeapOptional, StartsEmpty) {
  HeapOptional<BoxedValue> box;
  EXPECT_FALSE(box.has_value());
  EXPECT_FALSE(box);
  EXPECT_EQ(box, std::nullopt);
}

TEST(HeapOptional, AssigningAValueSetsItAndResetOrNulloptEmptiesIt) {
  HeapOptional<BoxedValue> box;
  box = BoxedValue{"a", 1};
  ASSERT_TRUE(box.has_value());
  EXPECT_EQ(box->name, "a");
  EXPECT_EQ((*box).n, 1);
  box.reset();
  EXPECT_FALSE(box.has_value());
  box.emplace(BoxedValue{"b", 2});
  EXPECT_EQ(box, (BoxedValue{"b", 2}));
  box = std::nullopt;
  EXPECT_FALSE(box.has_value());
}

TEST(HeapOptional, IsBuiltFromAndComparedWithWhatMakesItsValue) {
  HeapOptional<std::string> text = "literal";
  EXPECT_EQ(text, "literal");
  EXPECT_EQ(text, std::string("literal"));
  EXPECT_NE(text, "other");
  text = "";
  ASSERT_TRUE(text.has_value()) << "an empty string is a value";
  EXPECT_EQ(text, "");
  EXPECT_NE(HeapOptional<std::string>(), "");
}

TEST(HeapOptional, CopiesAreIndependentValues) {
  HeapOptional<BoxedValue> original = BoxedValue{"a", 1};
  HeapOptional<BoxedValue> copy = original;
  copy->name = "changed";
  EXPECT_EQ(original->name, "a");

  HeapOptional<BoxedValue> assigned;
  assigned = original;
  original->n = 5;
  EXPECT_EQ(assigned, (BoxedValue{"a", 1}));

  HeapOptional<BoxedValue> empty;
  assigned = empty;
  EXPECT_FALSE(assigned.has_value());
  const HeapOptional<BoxedValue>& same = original;
  original = same;  // self-assignment keeps the value
  EXPECT_EQ(original, (BoxedValue{"a", 5}));
}

TEST(HeapOptional, MovingCarriesTheValueOver) {
  HeapOptional<BoxedValue> source = BoxedValue{"a", 1};
  HeapOptional<BoxedValue> target = std::move(source);
  EXPECT_EQ(target, (BoxedValue{"a", 1}));
  HeapOptional<BoxedValue> assigned;
  assigned = std::move(target);
  EXPECT_EQ(assigned, (BoxedValue{"a", 1}));
}

TEST(HeapOptional, EqualityComparesContentsNotAddresses) {
  HeapOptional<BoxedValue> a = BoxedValue{"x", 1};
  HeapOptional<BoxedValue> b = BoxedValue{"x", 1};
  HeapOptional<BoxedValue> c = BoxedValue{"x", 2};
  HeapOptional<BoxedValue> empty;
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, empty);
  EXPECT_NE(empty, a);
  EXPECT_EQ(empty, HeapOptional<BoxedValue>());
  EXPECT_EQ(a, (BoxedValue{"x", 1}));
  EXPECT_NE(empty, (BoxedValue{}));
  EXPECT_NE(a, std::nullopt);
}

// Compared with a std::optional, it is equal when both are empty or both
// hold equal values, as two optionals are.
TEST(HeapOptional, ComparesWithAnOptionalAsAnOptionalWould) {
  HeapOptional<std::string> set = std::string("Block");
  HeapOptional<std::string> empty;
  EXPECT_EQ(set, std::optional<std::string>("Block"));
  EXPECT_NE(set, std::optional<std::string>("Filesystem"));
  EXPECT_NE(set, std::optional<std::string>());
  EXPECT_EQ(empty, std::optional<std::string>());
  EXPECT_NE(empty, std::optional<std::string>(""));
}

// The point of the type: an empty member of a cached object costs a pointer.
TEST(HeapOptional, TakesOnePointerWhereAnOptionalTakesTheWholeValue) {
  EXPECT_EQ(sizeof(HeapOptional<VolumeError>), sizeof(void*));
  EXPECT_LT(sizeof(HeapOptional<VolumeError>), sizeof(std::optional<VolumeError>));
  EXPECT_LT(sizeof(HeapOptional<SecretReference>), sizeof(std::optional<SecretReference>));
}

TEST(HeapOptionalCodec, AbsentOrNullDecodesEmptyInBothCodecs) {
  for (std::string_view text : {R"({})", R"({"omitted": null, "always": null})"}) {
    BoxHolder stream = HolderFromStream(text);
    EXPECT_FALSE(stream.omitted.has_value()) << text;
    EXPECT_FALSE(stream.always.has_value()) << text;
    EXPECT_EQ(stream, HolderFromDom(text)) << text;
  }
}

TEST(HeapOptionalCodec, PresentValueDecodesAlikeInBothCodecs) {
  constexpr std::string_view kText = R"({"omitted": {"name": "o", "n": 3}, "always": {}})";
  BoxHolder stream = HolderFromStream(kText);
  EXPECT_EQ(stream.omitted, (BoxedValue{"o", 3}));
  EXPECT_EQ(stream.always, BoxedValue{});
  EXPECT_EQ(stream, HolderFromDom(kText));
}

TEST(HeapOptionalCodec, EmptyIsOmittedOrNullUnderEmitAlways) {
  EXPECT_EQ(EncodedHolder(BoxHolder{}), nlohmann::json::parse(R"({"always": null})"));
}

TEST(HeapOptionalCodec, PresentAndAbsentRoundTripThroughBothCodecs) {
  BoxHolder present;
  present.omitted = BoxedValue{"o", 3};
  present.always = BoxedValue{"a", 0};
  for (const BoxHolder& holder : {present, BoxHolder{}}) {
    std::string text = EncodedHolder(holder).dump();
    EXPECT_EQ(HolderFromStream(text), holder) << text;
    EXPECT_EQ(HolderFromDom(text), holder) << text;
  }
}

TEST(HeapOptionalCodec, RepeatedKeyKeepsTheLastValueInBothCodecs) {
  constexpr std::string_view kText = R"({"omitted": {"name": "first"}, "omitted": null})";
  EXPECT_FALSE(HolderFromStream(kText).omitted.has_value());
  EXPECT_EQ(HolderFromStream(kText), HolderFromDom(kText));
}

TEST(HeapOptionalCodec, WrongTypeNamesThePathInBothCodecs) {
  auto stream = DecodeObject<VolumeAttachment>(R"({"status": {"detachError": "boom"}})");
  auto dom = ObjectFromJson<VolumeAttachment>(
      nlohmann::json::parse(R"({"status": {"detachError": "boom"}})"));
  ASSERT_FALSE(stream.ok());
  ASSERT_FALSE(dom.ok());
  EXPECT_NE(stream.error().message.find("status.detachError"), std::string::npos)
      << stream.error().message;
  EXPECT_EQ(stream.error().message, dom.error().message);
}

TEST(HeapOptionalCodec, VolumeAttachmentErrorsRoundTripPresentAndAbsent) {
  VolumeAttachment va;
  va.metadata.name = "va";
  va.status.detach_error = VolumeError{"2024-05-01T10:00:05Z", "detach failed", 13};
  std::string text = EncodeObject(va);
  EXPECT_EQ(nlohmann::json::parse(text)["status"].count("attachError"), 0u) << text;
  auto decoded = DecodeObject<VolumeAttachment>(text);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(*decoded, va);
  EXPECT_FALSE(decoded->status.attach_error.has_value());
  EXPECT_EQ(decoded->status.detach_error->error_code, 13);
}

}  // namespace
}  // namespace kube
