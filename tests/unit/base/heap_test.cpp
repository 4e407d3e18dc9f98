#include "base/heap.h"

#include <gtest/gtest.h>

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
#endif  // CSI_TEST_HEAP_TRIM

}  // namespace
}  // namespace base
