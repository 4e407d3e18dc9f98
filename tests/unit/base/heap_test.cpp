#include "base/heap.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <latch>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/support/heap_holes.h"

namespace base {
namespace {

#if CSI_TEST_HEAP_TRIM
TEST(ReleaseFreeHeapMemoryTest, ReturnsPagesFreedBetweenLiveBlocksToTheSystem) {
  testsupport::HeapHoles holes(48 << 20);
  long before = testsupport::RssAnonKiB();
  ASSERT_GT(before, 0);

  ReleaseFreeHeapMemory();

  long after = testsupport::RssAnonKiB();
  EXPECT_GT(before - after, holes.freed_kib() / 2)
      << "RssAnon " << before << " -> " << after << " KiB";
}

// glibc's malloc_info lists one <heap nr="..."> element per arena.
int MallocArenaCount() {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  int count = 0;
  for (std::string_view rest(text, size); rest.find("<heap nr=") != std::string_view::npos;) {
    rest.remove_prefix(rest.find("<heap nr=") + 1);
    ++count;
  }
  std::free(text);
  return count;
}

// In a fresh process (the threadsafe death-test style re-runs the test
// binary), so that no arena exists yet but the main one. Without the cap
// glibc gives each of the eight threads an arena of its own.
TEST(LimitMallocArenasTest, ThreadsThatAllocateShareTheCappedNumberOfArenas) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        LimitMallocArenas();
        constexpr int kThreads = 8;
        std::latch allocated(kThreads + 1);
        std::latch counted(1);
        // Kept where the compiler sees them escape: a malloc whose block
        // goes nowhere may be left out.
        std::vector<void*> blocks(kThreads);
        std::vector<std::jthread> threads;
        for (int i = 0; i < kThreads; ++i) {
          threads.emplace_back([&, i] {
            blocks[i] = std::malloc(1000);
            allocated.count_down();
            counted.wait();
          });
        }
        allocated.arrive_and_wait();
        int arenas = MallocArenaCount();
        counted.count_down();
        threads.clear();
        for (void* block : blocks) std::free(block);
        std::_Exit(arenas);
      },
      ::testing::ExitedWithCode(kMallocArenaMax), "");
}
#endif  // CSI_TEST_HEAP_TRIM

TEST(MallocArenaLimitTest, CapsArenasWhenGlibcTunablesAreUnsetOrSilentOnThem) {
  EXPECT_EQ(MallocArenaLimit(nullptr), kMallocArenaMax);
  EXPECT_EQ(MallocArenaLimit("glibc.malloc.tcache_count=0"), kMallocArenaMax);
}

TEST(MallocArenaLimitTest, LeavesTheArenaCountToAnOperatorWhoSetItInGlibcTunables) {
  EXPECT_EQ(MallocArenaLimit("glibc.malloc.arena_max=4"), std::nullopt);
  EXPECT_EQ(MallocArenaLimit("glibc.malloc.check=0:glibc.malloc.arena_max=8"), std::nullopt);
}

}  // namespace
}  // namespace base
