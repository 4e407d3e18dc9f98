// docs/attacher.md §1.2: numbers parse like Go's strconv (base-0 ints, floats with
// exponents), and quoting matches strconv.Quote.
#include "base/strconv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace base {
namespace {

TEST(ParseInt, BaseZeroFollowsGoLiteralSyntax) {
  const struct {
    const char* text;
    int64_t want;
  } cases[] = {
      {"0", 0},
      {"10", 10},
      {"+5", 5},
      {"-7", -7},
      {"0x10", 16},
      {"0X1f", 31},
      {"0o17", 15},
      {"0O17", 15},
      {"017", 15},
      {"0b101", 5},
      {"1_000", 1000},
      {"0x_1f", 31},
      {"0_17", 15},
      {"-0x10", -16},
      {"9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
  };
  for (const auto& c : cases) {
    Result<int64_t> got = ParseInt(c.text, 0, 64);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.error().message;
    EXPECT_EQ(*got, c.want) << c.text;
  }
}

TEST(ParseInt, RejectsWithSyntaxOrRangeError) {
  const struct {
    const char* text;
    int code;
  } cases[] = {
      {"", kNumErrorSyntax},
      {"abc", kNumErrorSyntax},
      {"08", kNumErrorSyntax},
      {"0x", kNumErrorSyntax},
      {"1__0", kNumErrorSyntax},
      {"_1", kNumErrorSyntax},
      {"1_", kNumErrorSyntax},
      {"1.5", kNumErrorSyntax},
      {"--1", kNumErrorSyntax},
      {" 1", kNumErrorSyntax},
      {"0b2", kNumErrorSyntax},
      {"9223372036854775808", kNumErrorRange},
      {"-9223372036854775809", kNumErrorRange},
  };
  for (const auto& c : cases) {
    Result<int64_t> got = ParseInt(c.text, 0, 64);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_EQ(got.error().code, c.code) << c.text;
  }
  EXPECT_EQ(ParseInt("abc", 0, 64).error().message,
            R"(strconv.ParseInt: parsing "abc": invalid syntax)");
  EXPECT_EQ(ParseInt("99999999999999999999", 0, 64).error().message,
            R"(strconv.ParseInt: parsing "99999999999999999999": value out of range)");
  EXPECT_FALSE(ParseInt("1_000", 10, 64).ok()) << "underscores need base 0";
}

TEST(ParseUint, RejectsSignsAndHonoursBitSize) {
  EXPECT_EQ(ParseUint("-1", 0, 64).error().message,
            R"(strconv.ParseUint: parsing "-1": invalid syntax)");
  EXPECT_FALSE(ParseUint("+1", 0, 64).ok());
  EXPECT_EQ(*ParseUint("18446744073709551615", 0, 64), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(ParseUint("18446744073709551616", 0, 64).error().code, kNumErrorRange);
  EXPECT_EQ(*ParseUint("2147483647", 10, 31), 2147483647u);
  EXPECT_EQ(ParseUint("2147483648", 10, 31).error().message,
            R"(strconv.ParseUint: parsing "2147483648": value out of range)");
  EXPECT_FALSE(ParseUint("0x10", 10, 64).ok());
}

TEST(ParseBool, AcceptsGoSpellingsOnly) {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) EXPECT_TRUE(*ParseBool(t)) << t;
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"}) {
    EXPECT_FALSE(*ParseBool(f)) << f;
  }
  for (const char* bad : {"", "yes", "tRUE", "2", " true"})
    EXPECT_FALSE(ParseBool(bad).ok()) << bad;
  EXPECT_EQ(ParseBool("yes").error().message,
            R"(strconv.ParseBool: parsing "yes": invalid syntax)");
}

TEST(ParseFloat, AcceptsGoForms) {
  const struct {
    const char* text;
    double want;
  } cases[] = {
      {"5", 5},         {"1e3", 1000},  {"1E3", 1000},        {"1.5", 1.5},
      {".5", 0.5},      {"5.", 5},      {"-2.5e-3", -0.0025}, {"+7", 7},
      {"0x1p-2", 0.25}, {"0x1.8p1", 3}, {"1_000.5", 1000.5},  {"0x_1p0", 1},
      {"1e-400", 0},    {"0.1", 0.1},
  };
  for (const auto& c : cases) {
    Result<double> got = ParseFloat(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.error().message;
    EXPECT_EQ(*got, c.want) << c.text;
  }
  EXPECT_TRUE(std::isinf(*ParseFloat("inf")));
  EXPECT_TRUE(std::isinf(*ParseFloat("+Inf")));
  EXPECT_LT(*ParseFloat("-Infinity"), 0);
  EXPECT_TRUE(std::isnan(*ParseFloat("NaN")));
}

TEST(ParseFloat, RejectsMalformed) {
  for (const char* bad : {"", "abc", ".", "1e", "1e+", "1.2.3", "1__0", "_1", "0x1", "0x1.8",
                          "+nan", "infx", "infin", "1 ", "e5"}) {
    Result<double> got = ParseFloat(bad);
    ASSERT_FALSE(got.ok()) << bad;
    EXPECT_EQ(got.error().code, kNumErrorSyntax) << bad;
  }
  EXPECT_EQ(ParseFloat("1e400").error().message,
            R"(strconv.ParseFloat: parsing "1e400": value out of range)");
}

TEST(FormatFloat, ShortestLikeGo) {
  EXPECT_EQ(FormatFloat(5, 'g'), "5");
  EXPECT_EQ(FormatFloat(0.5, 'g'), "0.5");
  EXPECT_EQ(FormatFloat(100000, 'g'), "100000");
  EXPECT_EQ(FormatFloat(1e6, 'g'), "1e+06");
  EXPECT_EQ(FormatFloat(123456789, 'g'), "1.23456789e+08");
  EXPECT_EQ(FormatFloat(0.0001, 'g'), "0.0001");
  EXPECT_EQ(FormatFloat(1.5e-5, 'g'), "1.5e-05");
  EXPECT_EQ(FormatFloat(0.1, 'f'), "0.1");
  EXPECT_EQ(FormatFloat(1e21, 'f'), "1000000000000000000000");
  EXPECT_EQ(FormatFloat(1e-7, 'e'), "1e-07");
  EXPECT_EQ(FormatFloat(std::nan(""), 'g'), "NaN");
  EXPECT_EQ(FormatFloat(-std::numeric_limits<double>::infinity(), 'f'), "-Inf");
}

TEST(GoQuote, EscapesLikeStrconvQuote) {
  const struct {
    const char* in;
    const char* want;
  } cases[] = {
      {"abc", R"("abc")"},
      {"a\"b\\c", R"("a\"b\\c")"},
      {"\a\b\f\n\r\t\v", R"("\a\b\f\n\r\t\v")"},
      {"\x01\x7f", R"("\x01\x7f")"},
      {"\xff", R"("\xff")"},
      {"\xc3", R"("\xc3")"},                  // truncated sequence
      {"\xed\xa0\x80", R"("\xed\xa0\x80")"},  // surrogate
      {"caf\u00e9 \u65e5\u672c \U0001F600", "\"caf\u00e9 \u65e5\u672c \U0001F600\""},
      {"\u00a0\u200b\u0085", R"("\u00a0\u200b\u0085")"},
      {"\U000F0000", R"("\U000f0000")"},
  };
  for (const auto& c : cases) EXPECT_EQ(GoQuote(c.in), c.want) << c.in;
}

}  // namespace
}  // namespace base
