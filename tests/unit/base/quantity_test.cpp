// Quantities as the API machinery reads and writes them: the zero test of
// validation and the canonical text of resource.NewQuantity(n, BinarySI)
// (docs/snapshots.md §4.3, a VolumeSnapshot's restoreSize). The expected
// texts were produced by apimachinery v0.36.3 itself.
#include "base/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace base {
namespace {

TEST(FormatBinarySIQuantity, MatchesTheApiMachinerysCanonicalText) {
  struct Case {
    int64_t value;
    std::string text;
  };
  const std::vector<Case> cases = {
      {0, "0"},
      {1, "1"},
      {100, "100"},
      {999, "999"},
      {1000, "1k"},  // below 1024 the decimal form, with an SI suffix
      {1023, "1023"},
      {1024, "1Ki"},
      {1536, "1536"},  // not a whole number of Ki
      {2048, "2Ki"},
      {3000, "3000"},  // from 1024 on, decimal suffixes are never used
      {12000, "12000"},
      {1000000, "1000000"},
      {1024000, "1000Ki"},
      {1048576, "1Mi"},
      {1073741824, "1Gi"},
      {107374182400, "100Gi"},
      {1125899906842624, "1Pi"},
      {1152921504606846976, "1Ei"},
      {-1, "-1"},
      {-1000, "-1k"},
      {-1024, "-1Ki"},
      {-1536, "-1536"},
      {std::numeric_limits<int64_t>::max(), "9223372036854775807"},
      {std::numeric_limits<int64_t>::min(), "-9223372036854775808"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FormatBinarySIQuantity(c.value), c.text) << c.value;
  }
}

TEST(QuantityIsZero, LooksAtTheAmountWhateverTheSuffix) {
  struct Case {
    std::string text;
    bool zero;
  };
  const std::vector<Case> cases = {
      {"0", true},  {"0Gi", true},  {"0.0", true},  {"0e3", true},  {"-0", true},
      {"1", false}, {"0.5", false}, {"1Gi", false}, {"10k", false},
  };
  for (const Case& c : cases) {
    Result<bool> zero = QuantityIsZero(c.text);
    ASSERT_TRUE(zero.ok()) << c.text << ": " << zero.error().message;
    EXPECT_EQ(*zero, c.zero) << c.text;
  }
}

TEST(QuantityIsZero, MalformedQuantitiesAreErrors) {
  for (std::string text : {"", "abc", "1Gb", "1e", "1.2.3"}) {
    EXPECT_FALSE(QuantityIsZero(text).ok()) << text;
  }
}

}  // namespace
}  // namespace base

namespace base {
namespace {

// resource.Quantity.Value(): the amount as a whole number, rounded up.
TEST(QuantityAsInt64, WholeNumbersRoundedUpAsValueDoes) {
  struct Case {
    std::string_view text;
    int64_t want;
  };
  const Case cases[] = {
      {"1Gi", 1LL << 30},
      {"100Mi", 100LL << 20},
      {"1.5Ki", 1536},
      {"1k", 1000},
      {"1.5G", 1500000000},
      {"100m", 1},
      {"1", 1},
      {"0", 0},
      {"1e3", 1000},
      {"2E6", 2000000},
  };
  for (const Case& c : cases) {
    Result<int64_t> value = QuantityAsInt64(c.text);
    ASSERT_TRUE(value.ok()) << c.text << ": " << value.error().message;
    EXPECT_EQ(*value, c.want) << c.text;
  }
}

TEST(QuantityAsInt64, MalformedAndTooLargeAreErrors) {
  EXPECT_FALSE(QuantityAsInt64("1Gb").ok());
  EXPECT_FALSE(QuantityAsInt64("").ok());
  EXPECT_FALSE(QuantityAsInt64("8Ei").ok());
}

}  // namespace
}  // namespace base
