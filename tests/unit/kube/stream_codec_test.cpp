#include "kube/api/stream_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kube/api/codec.h"
#include "kube/api/dom_codec.h"

namespace kube {
namespace {

using ::testing::ElementsAre;

struct Inner {
  std::string name;
  int32_t n = 0;

  bool operator==(const Inner&) const = default;

  static constexpr auto Fields() {
    return std::tuple{Field("name", &Inner::name), Field("n", &Inner::n)};
  }
};

struct Probe;

// A hook owning two keys; records the order it sees them in.
struct ProbeTagsField {
  static constexpr std::array<std::string_view, 2> kKeys = {"tags", "legacyTags"};

  template <class Codec>
  static void Decode(std::string_view key, const typename Codec::Value& value, Probe& out);
  template <class Codec>
  static void Encode(typename Codec::Object& object, const Probe& in);
};

struct Probe {
  std::string text;
  bool flag = false;
  int32_t small = 0;
  int64_t big = 0;
  StringMap map;
  std::vector<std::string> list;
  bool has_list = false;
  std::optional<Inner> maybe;
  std::shared_ptr<const Inner> shared;
  std::vector<Inner> inners;
  std::string deep_a;
  std::string deep_b;
  std::string deep_c;
  int32_t with_default = 7;
  std::vector<std::string> tags;
  std::string tag_keys_seen;

  bool operator==(const Probe& other) const {
    auto shared_equal = (shared == nullptr) == (other.shared == nullptr) &&
                        (shared == nullptr || *shared == *other.shared);
    return shared_equal &&
           std::tie(text, flag, small, big, map, list, has_list, maybe, inners, deep_a, deep_b,
                    deep_c, with_default, tags, tag_keys_seen) ==
               std::tie(other.text, other.flag, other.small, other.big, other.map, other.list,
                        other.has_list, other.maybe, other.inners, other.deep_a, other.deep_b,
                        other.deep_c, other.with_default, other.tags, other.tag_keys_seen);
  }

  static constexpr auto Fields() {
    using S = Probe;
    return std::tuple{
        Field("text", &S::text),
        Field("flag", &S::flag),
        Field("small", &S::small),
        Field("big", &S::big),
        Field("map", &S::map),
        Field("list", &S::list).RecordingPresenceIn(&S::has_list),
        Field("maybe", &S::maybe),
        Field("shared", &S::shared),
        Field("inners", &S::inners),
        Field("deep.x.a", &S::deep_a),
        Field("deep.x.b", &S::deep_b),
        Field("deep.c", &S::deep_c),
        Field("withDefault", &S::with_default),
        ProbeTagsField{},
    };
  }
};

template <class Codec>
void ProbeTagsField::Decode(std::string_view key, const typename Codec::Value& value, Probe& out) {
  std::vector<std::string> tags;
  Codec::Decode(value, tags);
  out.tags.insert(out.tags.end(), tags.begin(), tags.end());
  out.tag_keys_seen += std::string(key) + ";";
}

template <class Codec>
void ProbeTagsField::Encode(typename Codec::Object& object, const Probe& in) {
  if (!in.tags.empty()) Codec::Put(object, "tags", in.tags);
}

Probe Stream(std::string_view text) {
  Probe out;
  codec_internal::ReadText(text, out);
  return out;
}

Probe Dom(std::string_view text) {
  Probe out;
  codec_internal::DecodeValue(nlohmann::json::parse(text), out);
  return out;
}

// What each codec throws for `text` ("" when it decodes).
template <class Decode>
std::string ErrorOf(Decode decode, std::string_view text) {
  try {
    decode(text);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(StreamCodec, DecodesEveryMemberType) {
  constexpr std::string_view kText = R"({
    "withDefault": 3, "inners": [{"name": "i0"}, null, {"n": -4}],
    "text": "t", "flag": true, "small": -2147483648, "big": 9223372036854775807,
    "map": {"z": "1", "a": "2"}, "list": ["x", "y"], "maybe": {"name": "m", "n": 1},
    "shared": {"name": "s"}})";
  Probe probe = Stream(kText);
  EXPECT_EQ(probe.text, "t");
  EXPECT_TRUE(probe.flag);
  EXPECT_EQ(probe.small, -2147483648);
  EXPECT_EQ(probe.big, 9223372036854775807);
  EXPECT_EQ(probe.map, (StringMap{{"a", "2"}, {"z", "1"}}));
  EXPECT_THAT(probe.list, ElementsAre("x", "y"));
  EXPECT_TRUE(probe.has_list);
  EXPECT_EQ(probe.maybe, (Inner{"m", 1}));
  ASSERT_NE(probe.shared, nullptr);
  EXPECT_EQ(*probe.shared, (Inner{"s", 0}));
  EXPECT_THAT(probe.inners, ElementsAre(Inner{"i0", 0}, Inner{}, Inner{"", -4}));
  EXPECT_EQ(probe.with_default, 3);
  EXPECT_EQ(probe, Dom(kText));
}

TEST(StreamCodec, DottedNamesSharingAPrefixFillFromOneObject) {
  constexpr std::string_view kText =
      R"({"deep": {"x": {"b": "B", "other": 1, "a": "A"}, "c": "C"}})";
  Probe probe = Stream(kText);
  EXPECT_EQ(probe.deep_a, "A");
  EXPECT_EQ(probe.deep_b, "B");
  EXPECT_EQ(probe.deep_c, "C");
  EXPECT_EQ(probe, Dom(kText));
}

TEST(StreamCodec, HooksSeeTheirKeysInKeyOrderWhateverTheDocumentOrder) {
  constexpr std::string_view kText = R"({"legacyTags": ["old"], "text": "t", "tags": ["new"]})";
  Probe probe = Stream(kText);
  EXPECT_EQ(probe.tag_keys_seen, "tags;legacyTags;");
  EXPECT_THAT(probe.tags, ElementsAre("new", "old"));
  EXPECT_EQ(probe, Dom(kText));
}

TEST(StreamCodec, HooksSkipNullAndSeeTheLastOfRepeatedKeys) {
  constexpr std::string_view kText =
      R"({"tags": ["a"], "legacyTags": ["b"], "tags": ["c"], "legacyTags": null})";
  Probe probe = Stream(kText);
  EXPECT_EQ(probe.tag_keys_seen, "tags;");
  EXPECT_THAT(probe.tags, ElementsAre("c"));
  EXPECT_EQ(probe, Dom(kText));
}

TEST(StreamCodec, NullMembersStayEmpty) {
  constexpr std::string_view kText =
      R"({"text": null, "list": null, "maybe": null, "shared": null, "deep": null,
          "withDefault": null, "map": {"k": null}})";
  Probe probe = Stream(kText);
  EXPECT_EQ(probe.text, "");
  EXPECT_FALSE(probe.has_list);
  EXPECT_FALSE(probe.maybe.has_value());
  EXPECT_EQ(probe.shared, nullptr);
  EXPECT_EQ(probe.with_default, 7);
  EXPECT_EQ(probe.map, (StringMap{{"k", ""}}));
  EXPECT_EQ(probe, Dom(kText));
}

TEST(StreamCodec, UnknownMembersAreSkippedAtEveryLevel) {
  constexpr std::string_view kText =
      R"({"unknown": {"a": [1, {"b": null}]}, "deep": {"x": {"zz": [], "a": "A"}, "y": 1.5},
          "maybe": {"extra": "e", "name": "m"}, "text": "t"})";
  Probe probe = Stream(kText);
  EXPECT_EQ(probe.deep_a, "A");
  EXPECT_EQ(probe.maybe, (Inner{"m", 0}));
  EXPECT_EQ(probe.text, "t");
  EXPECT_EQ(probe, Dom(kText));
}

TEST(StreamCodec, RepeatedKeysKeepTheLastOneAsTheDomDoes) {
  for (std::string_view text : {
           R"({"maybe": {"name": "a"}, "maybe": {"n": 2}})",
           R"({"withDefault": 3, "withDefault": null})",
           R"({"list": ["a"], "list": null})",
           R"({"deep": {"x": {"a": "A"}}, "deep": {"c": "C"}})",
           R"({"deep": {"x": {"a": "A"}, "x": {"b": "B"}}})",
           R"({"map": {"k": "1"}, "map": {"j": "2"}})",
           R"({"map": {"k": "1", "k": null}})",
           R"({"inners": [{"name": "a"}], "inners": []})",
           R"({"text": 1, "text": "a"})",
           R"({"deep": {"x": 5}, "deep": {}})",
           R"({"deep": {"x": {"a": 1}, "x": null}})",
           R"({"map": {"k": 1, "k": "v"}})",
           R"({"maybe": {"n": "x"}, "maybe": null})",
       }) {
    EXPECT_EQ(Stream(text), Dom(text)) << text;
  }
  EXPECT_EQ(Stream(R"({"maybe": {"name": "a"}, "maybe": {"n": 2}})").maybe, (Inner{"", 2}));
  EXPECT_EQ(Stream(R"({"withDefault": 3, "withDefault": null})").with_default, 7);
  EXPECT_FALSE(Stream(R"({"list": ["a"], "list": null})").has_list);
}

TEST(StreamCodec, AnErrorCountsUnlessItsKeyComesAgain) {
  EXPECT_EQ(Stream(R"({"text": 1, "flag": true, "text": "a"})").text, "a");
  EXPECT_EQ(ErrorOf(Stream, R"({"text": 1, "flag": true, "text": 2})"),
            "text: type must be string, but is number");
  EXPECT_EQ(ErrorOf(Stream, R"({"text": 1, "flag": true})"),
            "text: type must be string, but is number");
  EXPECT_EQ(ErrorOf(Stream, R"({"map": {"k": 1, "j": "v"}})"),
            "map.k: type must be string, but is number");
  // The value in error is skipped, still checked for syntax.
  EXPECT_THAT(ErrorOf(Stream, R"({"text": {"a": [1,]}, "text": "a"})"),
              ::testing::StartsWith("syntax error at byte"));
}

TEST(StreamCodec, WrongTypesGiveTheDomCodecsMessages) {
  struct Case {
    std::string_view text;
    std::string_view message;
  } cases[] = {
      {R"({"text": 1})", "text: type must be string, but is number"},
      {R"({"flag": "yes"})", "flag: type must be boolean, but is string"},
      {R"({"small": true})", "small: type must be integer, but is boolean"},
      {R"({"small": 1.0})", "small: type must be integer, but is number"},
      {R"({"small": 1e2})", "small: type must be integer, but is number"},
      {R"({"small": 2147483648})", "small: number 2147483648 out of range"},
      {R"({"small": -2147483649})", "small: number -2147483649 out of range"},
      {R"({"big": 9223372036854775808})", "big: number 9223372036854775808 out of range"},
      {R"({"big": 18446744073709551616})", "big: type must be integer, but is number"},
      {R"({"big": -9223372036854775809})", "big: type must be integer, but is number"},
      {R"({"map": []})", "map: type must be object, but is array"},
      {R"({"map": {"k": 1}})", "map.k: type must be string, but is number"},
      {R"({"list": {}})", "list: type must be array, but is object"},
      {R"({"list": ["a", false]})", "list[1]: type must be string, but is boolean"},
      {R"({"maybe": "m"})", "maybe: type must be object, but is string"},
      {R"({"shared": {"n": "1"}})", "shared.n: type must be integer, but is string"},
      {R"({"inners": [{}, {"name": 2}]})", "inners[1].name: type must be string, but is number"},
      {R"({"deep": 5})", "deep: type must be object, but is number"},
      {R"({"deep": {"x": []}})", "deep.x: type must be object, but is array"},
      {R"({"deep": {"x": {"a": null, "b": {}}}})", "deep.x.b: type must be string, but is object"},
      {R"({"tags": 5})", "tags: type must be array, but is number"},
      {R"({"legacyTags": [1]})", "legacyTags[0]: type must be string, but is number"},
      {R"([])", "type must be object, but is array"},
      {R"("s")", "type must be object, but is string"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ErrorOf(Stream, c.text), c.message) << c.text;
    EXPECT_EQ(ErrorOf(Dom, c.text), c.message) << c.text;
  }
}

TEST(StreamCodec, SyntaxErrorsAnywhereFailTheDecode) {
  for (std::string_view text :
       {R"({"unknown": [1,]})", R"({"text": "t"} x)", R"({"unknown": 1e999})", R"({"text": "t")",
        "{\"text\": \"\xff\"}"}) {
    EXPECT_THAT(ErrorOf(Stream, text), ::testing::StartsWith("syntax error at byte")) << text;
  }
}

TEST(StreamCodec, ObjectErrorsSayDecodingKindLikeBefore) {
  auto status = DecodeObject<Status>(R"({"code": "410"})");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "decoding Status: code: type must be integer, but is string");
  auto broken = DecodeObject<Status>(R"({"code": )");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message,
            "decoding Status: syntax error at byte 9: unexpected end of input");
}

}  // namespace
}  // namespace kube
