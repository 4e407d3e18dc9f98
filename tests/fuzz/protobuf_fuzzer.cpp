// libFuzzer target: CheckProtobuf (protobuf_check.h) on each input; a finding aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/protobuf_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string difference = fuzz::CheckProtobuf({reinterpret_cast<const char*>(data), size});
  if (!difference.empty()) {
    std::fprintf(stderr, "protobuf decoding differs: %s\n", difference.c_str());
    std::abort();
  }
  return 0;
}
