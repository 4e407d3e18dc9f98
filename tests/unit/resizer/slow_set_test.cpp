// docs/resizer.md §4.5: the slow set holds a claim back for the retention
// from its first mark; a mark past the retention starts over.
#include "resizer/slow_set.h"

#include <gtest/gtest.h>

namespace resizer {
namespace {

using namespace std::chrono_literals;

TEST(SlowSetTest, HoldsBackForTheRetentionFromTheFirstMark) {
  base::FakeClock clock;
  SlowSet slow(clock, 5min);
  EXPECT_EQ(slow.TimeLeft("ns/a"), 0s);
  slow.Mark("ns/a");
  clock.Advance(2min);
  slow.Mark("ns/a");  // not a new start
  EXPECT_EQ(slow.TimeLeft("ns/a"), 3min);
  EXPECT_EQ(slow.TimeLeft("ns/b"), 0s);
  clock.Advance(3min);
  EXPECT_EQ(slow.TimeLeft("ns/a"), 0s);
}

TEST(SlowSetTest, AMarkPastTheRetentionStartsOver) {
  base::FakeClock clock;
  SlowSet slow(clock, 5min);
  slow.Mark("ns/a");
  clock.Advance(6min);
  slow.Mark("ns/a");
  EXPECT_EQ(slow.TimeLeft("ns/a"), 5min);
  slow.Remove("ns/a");
  EXPECT_EQ(slow.TimeLeft("ns/a"), 0s);
}

}  // namespace
}  // namespace resizer
