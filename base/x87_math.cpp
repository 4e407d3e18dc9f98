#include "base/x87_math.h"

#include <cstdint>
#include <limits>

#if !defined(__x86_64__)
#error "base/x87_math.cpp uses x87 instructions; build it for x86-64 only"
#endif

namespace base {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// From 2^53 on every double is an even integer.
constexpr double kAllEvenIntegers = 9007199254740992.0;

// y * log2(x) for x > 0 (fyl2x computes st(1) * log2(st(0)) and pops).
long double MulLog2(long double y, long double x) {
  long double result;
  asm("fyl2x" : "=t"(result) : "0"(x), "u"(y) : "st(1)");
  return result;
}

// 2^z: 2^(z - n) - 1 by f2xm1 (|z - n| <= 1/2), scaled by 2^n with fscale.
long double Exp2(long double z) {
  long double n;
  asm("frndint" : "=t"(n) : "0"(z));
  long double fraction;
  asm("f2xm1" : "=t"(fraction) : "0"(z - n));
  long double result;
  asm("fscale" : "=t"(result) : "0"(fraction + 1.0L), "u"(n));
  return result;
}

bool IsInteger(double y) {
  double magnitude = __builtin_fabs(y);
  return magnitude >= kAllEvenIntegers || y == static_cast<double>(static_cast<int64_t>(y));
}

bool IsOddInteger(double y) {
  return __builtin_fabs(y) < kAllEvenIntegers && IsInteger(y) && (static_cast<int64_t>(y) & 1) != 0;
}

}  // namespace

double Log2(double x) {
  if (__builtin_isnan(x)) return x;
  if (x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -kInfinity;
  return static_cast<double>(MulLog2(1.0L, x));
}

double Pow(double x, double y) {
  if (y == 0 || x == 1) return 1;
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  const bool odd = IsOddInteger(y);
  if (__builtin_isinf(y)) {
    double magnitude = __builtin_fabs(x);
    if (magnitude == 1) return 1;
    return (magnitude < 1) == (y < 0) ? kInfinity : 0;
  }
  if (x == 0) {
    if (y < 0) return odd ? __builtin_copysign(kInfinity, x) : kInfinity;
    return odd ? x : 0;
  }
  if (__builtin_isinf(x)) {
    double magnitude = y < 0 ? 0 : kInfinity;
    return x < 0 && odd ? -magnitude : magnitude;
  }
  if (x < 0) {
    if (!IsInteger(y)) return std::numeric_limits<double>::quiet_NaN();
    double result = static_cast<double>(Exp2(MulLog2(y, -x)));
    return odd ? -result : result;
  }
  return static_cast<double>(Exp2(MulLog2(y, x)));
}

}  // namespace base
