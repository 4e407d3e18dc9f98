// Pow and Log2 computed on the x87 unit in 80-bit precision (64-bit
// significand), then rounded once to double: at most one ulp from the exact
// result, with C's special cases (C11 Annex F: pow(x, ±0) = 1, pow(+1, y) = 1,
// signed zeros and infinities for zero, infinite and negative bases, NaN for
// a negative base with a non-integer exponent).
//
// Why: they are the only libm functions the libraries of our shipped binaries
// call that libc does not also provide, and providing them keeps libm.so out
// of the process - about 0.5 MiB of resident file pages for 5 functions
// (docs/design.md §5.1, base/lean/libm_subset.cpp). x86-64 only.
#pragma once

namespace base {

double Pow(double x, double y);
double Log2(double x);

}  // namespace base
