#include "kube/api/json_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kube {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string ReadOneString(std::string_view text) {
  JsonReader in(text);
  std::string out;
  in.ReadString(out);
  in.ExpectEnd();
  return out;
}

// The message of the syntax error reading `text` as one skipped value throws.
std::string SkipError(std::string_view text) {
  try {
    JsonReader in(text);
    in.SkipValue();
    in.ExpectEnd();
  } catch (const JsonSyntaxError& e) {
    return e.what();
  }
  return "";
}

TEST(JsonReader, ReadsMembersAndElementsInDocumentOrder) {
  JsonReader in(R"( {"b": [1, true, null, "x"], "a": {}} )");
  in.BeginObject();
  std::string_view key;
  ASSERT_TRUE(in.NextMember(key));
  EXPECT_EQ(key, "b");
  EXPECT_EQ(in.Peek(), JsonType::kArray);
  in.BeginArray();
  ASSERT_TRUE(in.NextElement());
  EXPECT_EQ(in.ReadNumber(), "1");
  ASSERT_TRUE(in.NextElement());
  EXPECT_TRUE(in.ReadBoolean());
  ASSERT_TRUE(in.NextElement());
  EXPECT_EQ(in.Peek(), JsonType::kNull);
  in.ReadNull();
  ASSERT_TRUE(in.NextElement());
  std::string text;
  in.ReadString(text);
  EXPECT_EQ(text, "x");
  EXPECT_FALSE(in.NextElement());
  ASSERT_TRUE(in.NextMember(key));
  EXPECT_EQ(key, "a");
  in.BeginObject();
  EXPECT_FALSE(in.NextMember(key));
  EXPECT_FALSE(in.NextMember(key));
  in.ExpectEnd();
}

TEST(JsonReader, DecodesEscapes) {
  EXPECT_EQ(ReadOneString(R"("a\"b\\c\/d\be\ff\ng\rh\ti")"), "a\"b\\c/d\be\ff\ng\rh\ti");
  EXPECT_EQ(ReadOneString(R"("\u0041\u00e9\u20AC")"), "A\xC3\xA9\xE2\x82\xAC");
}

TEST(JsonReader, JoinsSurrogatePairsIntoOneCodePoint) {
  EXPECT_EQ(ReadOneString(R"("\ud83d\ude00!")"), "\xF0\x9F\x98\x80!");
}

TEST(JsonReader, RejectsLoneSurrogates) {
  EXPECT_THAT(SkipError(R"("\ud83d")"), HasSubstr("surrogate"));
  EXPECT_THAT(SkipError(R"("\ud83dx")"), HasSubstr("surrogate"));
  EXPECT_THAT(SkipError(R"("\ud83d\u0041")"), HasSubstr("surrogate"));
  EXPECT_THAT(SkipError(R"("\ude00")"), HasSubstr("surrogate"));
}

TEST(JsonReader, CopiesStringsWithoutEscapesVerbatim) {
  EXPECT_EQ(ReadOneString("\"plain \xC3\xA9 text\""), "plain \xC3\xA9 text");
  EXPECT_EQ(ReadOneString(R"("")"), "");
}

TEST(JsonReader, KeysWithEscapesAreDecoded) {
  JsonReader in(R"({"a\u0062c": 1})");
  in.BeginObject();
  std::string_view key;
  ASSERT_TRUE(in.NextMember(key));
  EXPECT_EQ(key, "abc");
}

TEST(JsonReader, RejectsIllFormedUtf8AndControlCharacters) {
  EXPECT_THAT(SkipError("\"\xff\""), HasSubstr("UTF-8"));
  EXPECT_THAT(SkipError("\"\xC0\xAF\""), HasSubstr("UTF-8"));          // overlong '/'
  EXPECT_THAT(SkipError("\"\xED\xA0\x80\""), HasSubstr("UTF-8"));      // encoded surrogate
  EXPECT_THAT(SkipError("\"\xF4\x90\x80\x80\""), HasSubstr("UTF-8"));  // above U+10FFFF
  EXPECT_THAT(SkipError("\"\xE2\x82\""), HasSubstr("UTF-8"));          // truncated sequence
  EXPECT_THAT(SkipError("\"a\nb\""), HasSubstr("control character"));
  EXPECT_THAT(SkipError(R"("\x")"), HasSubstr("invalid escape"));
  EXPECT_THAT(SkipError(R"("\u12G4")"), HasSubstr("\\u escape"));
}

TEST(JsonReader, ChecksNumbersLikeTheJsonGrammar) {
  for (std::string_view good :
       {"0", "-0", "12", "-3.25", "1e5", "1E+5", "2.5e-3", "18446744073709551615",
        "-9223372036854775808", "123456789012345678901234567890"}) {
    JsonReader in(good);
    EXPECT_EQ(in.ReadNumber(), good);
    in.ExpectEnd();
  }
  for (std::string_view bad : {"01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.2"}) {
    EXPECT_THAT(SkipError(bad), StartsWith("syntax error")) << bad;
  }
}

TEST(JsonReader, RejectsNumbersBeyondTheRangeOfADouble) {
  EXPECT_THAT(SkipError("1e400"), HasSubstr("out of range"));
  EXPECT_THAT(SkipError("-1e400"), HasSubstr("out of range"));
  EXPECT_THAT(SkipError(std::string(400, '9')), HasSubstr("out of range"));
  EXPECT_EQ(SkipError("1e-400"), "");  // underflow to zero is a number
}

TEST(JsonReader, SkipsNestedValuesAndReturnsTheirText) {
  JsonReader in(R"({"skip": {"a": [1, {"b": "}"}], "c": null}, "next": 2})");
  in.BeginObject();
  std::string_view key;
  ASSERT_TRUE(in.NextMember(key));
  EXPECT_EQ(in.SkipValue(), R"({"a": [1, {"b": "}"}], "c": null})");
  ASSERT_TRUE(in.NextMember(key));
  EXPECT_EQ(key, "next");
  EXPECT_EQ(in.ReadNumber(), "2");
  EXPECT_FALSE(in.NextMember(key));
}

TEST(JsonReader, LimitsNestingDepth) {
  std::string deep =
      std::string(JsonReader::kMaxDepth, '[') + std::string(JsonReader::kMaxDepth, ']');
  EXPECT_EQ(SkipError(deep), "");
  std::string deeper = "[" + deep + "]";
  EXPECT_THAT(SkipError(deeper), HasSubstr("nesting deeper than 10000"));
}

TEST(JsonReader, TruncatedInputIsAnErrorAtItsEnd) {
  for (std::string_view text :
       {R"({"a": )", R"({"a": 1)", R"({"a)", "[1, 2", R"("abc)", "tru", ""}) {
    EXPECT_THAT(SkipError(text), StartsWith("syntax error at byte")) << text;
  }
  EXPECT_EQ(SkipError(R"({"a": )"), "syntax error at byte 6: unexpected end of input");
}

TEST(JsonReader, GarbageIsAnErrorNamingTheByteOffset) {
  EXPECT_EQ(SkipError(R"({"a": 1 "b": 2})"), "syntax error at byte 8: expected ',' or '}'");
  EXPECT_EQ(SkipError(R"({"a": 1,})"), "syntax error at byte 8: expected '\"'");
  EXPECT_EQ(SkipError("[1,]"), "syntax error at byte 3: expected a value");
  EXPECT_EQ(SkipError("{} x"), "syntax error at byte 3: unexpected data after the value");
  EXPECT_EQ(SkipError("nul"), "syntax error at byte 0: invalid literal");
  EXPECT_EQ(SkipError(R"({1: 2})"), "syntax error at byte 1: expected '\"'");
  EXPECT_EQ(SkipError(R"({"a" 2})"), "syntax error at byte 5: expected ':'");
  EXPECT_EQ(SkipError(std::string_view("{}\0", 3)),
            "syntax error at byte 2: unexpected data after the value");
}

TEST(JsonReader, SkipsALeadingByteOrderMark) {
  JsonReader in("\xEF\xBB\xBF{}");
  EXPECT_EQ(in.Peek(), JsonType::kObject);
  EXPECT_EQ(SkipError("\xEF\xBB{}"), "syntax error at byte 0: expected a value");
}

TEST(JsonReader, SliceReportsOffsetsInTheWholeText) {
  constexpr std::string_view kText = R"({"a": [1, x]})";
  JsonReader in(kText);
  in.BeginObject();
  std::string_view key;
  ASSERT_TRUE(in.NextMember(key));
  JsonReader::Position at = in.Tell();
  EXPECT_THROW(in.SkipValue(), JsonSyntaxError);
  in.Seek(at);
  EXPECT_EQ(in.Peek(), JsonType::kArray);
  JsonReader slice = in.Slice(kText.substr(6, 6));
  try {
    slice.SkipValue();
    ADD_FAILURE() << "no error";
  } catch (const JsonSyntaxError& e) {
    EXPECT_STREQ(e.what(), "syntax error at byte 10: expected a value");
  }
}

}  // namespace
}  // namespace kube
