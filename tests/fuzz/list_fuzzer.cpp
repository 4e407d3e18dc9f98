// libFuzzer target: CrossCheckList (decode_cross_check.h) on each input; a disagreement aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/decode_cross_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string difference = fuzz::CrossCheckList({reinterpret_cast<const char*>(data), size});
  if (!difference.empty()) {
    std::fprintf(stderr, "codecs disagree: %s\n", difference.c_str());
    std::abort();
  }
  return 0;
}
