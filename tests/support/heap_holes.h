// HeapHoles: resident heap memory freed between live blocks, for tests of code
// that hands free heap memory back to the system. malloc gives back only the
// top of a heap by itself, so these holes stay resident until trimmed.
// RssAnonKiB: the process's resident anonymous memory, to see it go.
#pragma once

// Under AddressSanitizer its allocator, not glibc's, serves malloc, and its
// quarantine keeps freed blocks: glibc's malloc_trim has nothing to hand back
// there, so the tests of handing heap memory back are compiled only without it
// (they would fail there, or pass without checking anything).
#if defined(__SANITIZE_ADDRESS__)
#define CSI_TEST_HEAP_TRIM 0
#else
#define CSI_TEST_HEAP_TRIM 1
#endif

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace testsupport {

inline long RssAnonKiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("RssAnon:", 0) == 0) return std::strtol(line.c_str() + 8, nullptr, 10);
  }
  return -1;
}

class HeapHoles {
 public:
  // Allocates and touches about `bytes` in small blocks, then frees all but
  // every 32nd: holes of 31 blocks, most of their pages whole.
  explicit HeapHoles(size_t bytes) {
    std::vector<void*> blocks(bytes / kBlockSize);
    for (void*& block : blocks) {
      block = std::malloc(kBlockSize);
      if (block != nullptr) std::memset(block, 0x5a, kBlockSize);
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (i % kPinEvery == kPinEvery - 1) {
        pinned_.push_back(blocks[i]);
      } else {
        std::free(blocks[i]);
        freed_bytes_ += kBlockSize;
      }
    }
  }
  ~HeapHoles() {
    for (void* block : pinned_) std::free(block);
  }
  HeapHoles(const HeapHoles&) = delete;
  HeapHoles& operator=(const HeapHoles&) = delete;

  long freed_kib() const { return static_cast<long>(freed_bytes_ / 1024); }

 private:
  static constexpr size_t kBlockSize = 1000;
  static constexpr size_t kPinEvery = 32;

  std::vector<void*> pinned_;
  size_t freed_bytes_ = 0;
};

}  // namespace testsupport
