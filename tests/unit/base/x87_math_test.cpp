// base::Pow and base::Log2 (base/x87_math.h) against glibc's libm, which the
// tests still link: C11 Annex F's special cases exactly, everything else
// within one ulp.
#include "base/x87_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace base {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Distance in units in the last place between two finite doubles of one sign.
int64_t UlpDistance(double a, double b) {
  int64_t ia;
  int64_t ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? ia - ib : ib - ia;
}

// Same value, same sign of zero and of infinity, or both NaN.
::testing::AssertionResult Identical(double expected, double actual) {
  if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
  if (expected == actual && std::signbit(expected) == std::signbit(actual)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "expected " << expected << ", got " << actual;
}

::testing::AssertionResult WithinOneUlp(double expected, double actual) {
  if (!std::isfinite(expected) || expected == 0) return Identical(expected, actual);
  if (std::signbit(expected) == std::signbit(actual) && UlpDistance(expected, actual) <= 1) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << std::hexfloat << "expected " << expected << ", got " << actual;
}

const std::vector<double> kSpecialBases = {0.0,  -0.0, 1.0,  -1.0,  2.0,  -2.0,   0.5,  -0.5,
                                           10.0, -3.0, kInf, -kInf, kNaN, 1e-310, 1e308};
const std::vector<double> kSpecialExponents = {0.0,
                                               -0.0,
                                               1.0,
                                               -1.0,
                                               2.0,
                                               -2.0,
                                               3.0,
                                               -3.0,
                                               0.5,
                                               -0.5,
                                               1.5,
                                               kInf,
                                               -kInf,
                                               kNaN,
                                               1e300,
                                               -1e300,
                                               9007199254740993.0,
                                               1025.0};

TEST(X87MathTest, PowMatchesLibmOnEverySpecialCase) {
  for (double x : kSpecialBases) {
    for (double y : kSpecialExponents) {
      EXPECT_TRUE(WithinOneUlp(std::pow(x, y), Pow(x, y))) << "pow(" << x << ", " << y << ")";
    }
  }
}

TEST(X87MathTest, PowIsExactWhereTheResultIsRepresentable) {
  EXPECT_EQ(Pow(2, 10), 1024);
  EXPECT_EQ(Pow(2, -1074), std::ldexp(1.0, -1074));
  EXPECT_EQ(Pow(2, 1023), std::ldexp(1.0, 1023));
  EXPECT_EQ(Pow(10, 2), 100);
  EXPECT_EQ(Pow(10, 15), 1e15);
  EXPECT_EQ(Pow(-3, 3), -27);
  EXPECT_EQ(Pow(1.5, 2), 2.25);
  EXPECT_EQ(Pow(4, 0.5), 2);
}

TEST(X87MathTest, PowOverflowsToInfinityAndUnderflowsToZero) {
  EXPECT_TRUE(Identical(kInf, Pow(10, 400)));
  EXPECT_TRUE(Identical(-kInf, Pow(-10, 401)));
  EXPECT_TRUE(Identical(0.0, Pow(10, -400)));
  EXPECT_TRUE(Identical(-0.0, Pow(-10, -401)));
}

TEST(X87MathTest, PowIsWithinOneUlpOfLibm) {
  std::mt19937_64 random(20261125);
  std::uniform_real_distribution<double> base(1e-6, 1e6);
  std::uniform_real_distribution<double> exponent(-40, 40);
  for (int i = 0; i < 200000; ++i) {
    double x = base(random);
    double y = exponent(random);
    ASSERT_TRUE(WithinOneUlp(std::pow(x, y), Pow(x, y))) << "pow(" << x << ", " << y << ")";
  }
}

TEST(X87MathTest, Log2MatchesLibm) {
  for (double x : {0.0, -0.0, 1.0, -1.0, kInf, -kInf, kNaN, 1e-310, 0.1, 3.0, 1e308}) {
    EXPECT_TRUE(WithinOneUlp(std::log2(x), Log2(x))) << "log2(" << x << ")";
  }
  for (int k = -1074; k <= 1023; ++k) EXPECT_EQ(Log2(std::ldexp(1.0, k)), k);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(1e-300, 1e300);
  for (int i = 0; i < 100000; ++i) {
    double x = value(random) * (i % 2 ? 1e-250 : 1);
    ASSERT_TRUE(WithinOneUlp(std::log2(x), Log2(x))) << "log2(" << x << ")";
  }
}

}  // namespace
}  // namespace base
