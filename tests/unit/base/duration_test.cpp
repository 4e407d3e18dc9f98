// docs/attacher.md §1.2: durations parse and print exactly like Go's time package.
#include "base/duration.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace base {
namespace {

using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

struct ValidCase {
  const char* text;
  nanoseconds want;
};

TEST(ParseDuration, AcceptsWhatGoAccepts) {
  const ValidCase cases[] = {
      {"0", nanoseconds(0)},
      {"-0", nanoseconds(0)},
      {"+0", nanoseconds(0)},
      {"0s", nanoseconds(0)},
      {"5s", seconds(5)},
      {"+5s", seconds(5)},
      {"-5s", seconds(-5)},
      {"300ms", milliseconds(300)},
      {"5.6s", milliseconds(5600)},
      {"5.s", seconds(5)},
      {".5s", milliseconds(500)},
      {"1.004s", milliseconds(1004)},
      {"100.00100s", milliseconds(100001)},
      {"10ns", nanoseconds(10)},
      {"11us", microseconds(11)},
      {"12\u00b5s", microseconds(12)},  // micro sign
      {"12\u03bcs", microseconds(12)},  // Greek mu
      {"1.5us", nanoseconds(1500)},
      {"13ms", milliseconds(13)},
      {"15m", minutes(15)},
      {"16h", hours(16)},
      {"-1.5h", minutes(-90)},
      {"2h45m", minutes(165)},
      {"3h30m", minutes(210)},
      {"10.5s4m", milliseconds(250500)},
      {"-2m3.4s", milliseconds(-123400)},
      {"1h2m3s4ms5us6ns",
       hours(1) + minutes(2) + seconds(3) + milliseconds(4) + microseconds(5) + nanoseconds(6)},
      {"39h9m14.425s", hours(39) + minutes(9) + milliseconds(14425)},
      {"0.3333333333333333333h", minutes(20)},
      {"0.830103483285477580700h", minutes(49) + seconds(48) + nanoseconds(372539827)},
      {"9223372036854775807ns", nanoseconds(std::numeric_limits<int64_t>::max())},
      {"9223372036854775.807us", nanoseconds(std::numeric_limits<int64_t>::max())},
      {"9223372036s854ms775us807ns", nanoseconds(std::numeric_limits<int64_t>::max())},
      {"-9223372036854775808ns", nanoseconds(std::numeric_limits<int64_t>::min())},
      {"-9223372036s854ms775us808ns", nanoseconds(std::numeric_limits<int64_t>::min())},
  };
  for (const ValidCase& c : cases) {
    Result<nanoseconds> got = ParseDuration(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.error().message;
    EXPECT_EQ(got->count(), c.want.count()) << c.text;
  }
}

struct InvalidCase {
  const char* text;
  const char* message;
};

TEST(ParseDuration, RejectsWithGoMessages) {
  const InvalidCase cases[] = {
      {"", R"(time: invalid duration "")"},
      {"5", R"(time: missing unit in duration "5")"},
      {"-", R"(time: invalid duration "-")"},
      {"s", R"(time: invalid duration "s")"},
      {".", R"(time: invalid duration ".")"},
      {"-.", R"(time: invalid duration "-.")"},
      {".s", R"(time: invalid duration ".s")"},
      {"+.s", R"(time: invalid duration "+.s")"},
      {"x", R"(time: invalid duration "x")"},
      {"5d", R"(time: unknown unit "d" in duration "5d")"},
      {"1h5", R"(time: missing unit in duration "1h5")"},
      {"1 s", R"(time: unknown unit " s" in duration "1 s")"},
      {"\x85\x85", R"(time: invalid duration "\x85\x85")"},
      {"3\xff", R"(time: unknown unit "\xff" in duration "3\xff")"},
      {"9223372036854775808ns", R"(time: invalid duration "9223372036854775808ns")"},
      {"9223372036854775.808us", R"(time: invalid duration "9223372036854775.808us")"},
      {"9223372036854ms775us808ns", R"(time: invalid duration "9223372036854ms775us808ns")"},
      {"-9223372036854775809ns", R"(time: invalid duration "-9223372036854775809ns")"},
      {"100000000000000000000h", R"(time: invalid duration "100000000000000000000h")"},
  };
  for (const InvalidCase& c : cases) {
    Result<nanoseconds> got = ParseDuration(c.text);
    ASSERT_FALSE(got.ok()) << c.text;
    EXPECT_EQ(got.error().message, c.message);
  }
}

TEST(FormatDuration, MatchesGoString) {
  const ValidCase cases[] = {
      {"0s", nanoseconds(0)},
      {"1ns", nanoseconds(1)},
      {"1.1\u00b5s", nanoseconds(1100)},
      {"2.2ms", microseconds(2200)},
      {"100ms", milliseconds(100)},
      {"1.5s", milliseconds(1500)},
      {"15s", seconds(15)},
      {"3.3s", milliseconds(3300)},
      {"1m30s", seconds(90)},
      {"4m5s", minutes(4) + seconds(5)},
      {"4m5.001s", minutes(4) + milliseconds(5001)},
      {"10m0s", minutes(10)},
      {"1h0m0s", hours(1)},
      {"5h6m7.001s", hours(5) + minutes(6) + milliseconds(7001)},
      {"8m0.000000001s", minutes(8) + nanoseconds(1)},
      {"-1.5s", milliseconds(-1500)},
      {"2562047h47m16.854775807s", nanoseconds(std::numeric_limits<int64_t>::max())},
      {"-2562047h47m16.854775808s", nanoseconds(std::numeric_limits<int64_t>::min())},
  };
  for (const ValidCase& c : cases) EXPECT_EQ(FormatDuration(c.want), c.text);
}

TEST(FormatDuration, RoundTripsThroughParse) {
  const nanoseconds cases[] = {nanoseconds(1), nanoseconds(1500),          milliseconds(300),
                               seconds(90),    hours(49) + nanoseconds(7), -minutes(3)};
  for (nanoseconds d : cases) {
    Result<nanoseconds> parsed = ParseDuration(FormatDuration(d));
    ASSERT_TRUE(parsed.ok()) << FormatDuration(d);
    EXPECT_EQ(parsed->count(), d.count());
  }
}

}  // namespace
}  // namespace base
