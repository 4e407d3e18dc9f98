// The libm functions that the libraries of a lean binary call and libc does
// not also export - pow and log2 (gRPC's HTTP/2 flow control, abseil's
// sampling), sqrt (gRPC), nan and nanf (abseil's number parsing), fegetround
// and fesetround (libstdc++'s floating-point to_chars) - so that the
// linker's --as-needed leaves libm.so.6 out of the process: about 0.5 MiB of
// resident file pages for these seven (docs/design.md §5.1). Linked into the
// shipped binaries only (cmake/lean_binaries.cmake), never into a library:
// the tests keep glibc's libm and test base::Pow and base::Log2 against it.
#include "base/x87_math.h"

extern "C" {

double pow(double x, double y) { return base::Pow(x, y); }

double log2(double x) { return base::Log2(x); }

// sqrtsd is IEEE-exact; glibc's wrapper adds only errno for x < 0.
double sqrt(double x) {
  double root;
  asm("sqrtsd %1, %0" : "=x"(root) : "x"(x));
  return root;
}

// A quiet NaN; the callers pass "" (no payload).
double nan(const char*) { return __builtin_nan(""); }
float nanf(const char*) { return __builtin_nanf(""); }

// The rounding mode is the RC field of the x87 control word (bits 10-11) and
// of MXCSR (bits 13-14); <fenv.h>'s FE_* values are the x87 bits.
int fegetround() {
  unsigned short control;
  asm volatile("fnstcw %0" : "=m"(control));
  return control & 0xc00;
}

int fesetround(int mode) {
  if ((mode & ~0xc00) != 0) return 1;
  unsigned short control;
  asm volatile("fnstcw %0" : "=m"(control));
  control = static_cast<unsigned short>((control & ~0xc00) | mode);
  asm volatile("fldcw %0" : : "m"(control));
  unsigned int mxcsr;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  mxcsr = (mxcsr & ~0x6000u) | (static_cast<unsigned int>(mode) << 3);
  asm volatile("ldmxcsr %0" : : "m"(mxcsr));
  return 0;
}

}  // extern "C"
