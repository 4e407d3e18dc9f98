// docs/snapshots.md §3.4 create step 6: the snapshot name CreateSnapshot is
// asked for, "<prefix>-<VolumeSnapshot UID>" with --snapshot-name-uuid-length.
#include "snapshotter/names.h"

#include <gtest/gtest.h>

namespace snapshotter {
namespace {

constexpr std::string_view kUid = "0a1b2c3d-4e5f-6789-abcd-ef0123456789";

TEST(SnapshotName, WholeUidWithDashesByDefault) {
  EXPECT_EQ(SnapshotName("snapshot", kUid, -1), "snapshot-0a1b2c3d-4e5f-6789-abcd-ef0123456789");
}

TEST(SnapshotName, UuidLengthDropsDashesThenTruncates) {
  EXPECT_EQ(SnapshotName("snap", kUid, 8), "snap-0a1b2c3d");
  EXPECT_EQ(SnapshotName("snap", kUid, 10), "snap-0a1b2c3d4e");
  EXPECT_EQ(SnapshotName("snap", kUid, 32), "snap-0a1b2c3d4e5f6789abcdef0123456789");
  EXPECT_EQ(SnapshotName("snap", kUid, 0), "snap-");
}

TEST(SnapshotName, UidShorterThanUuidLengthIsKeptWholeInsteadOfPanicking) {
  EXPECT_EQ(SnapshotName("snap", "ab-cd", 32), "snap-abcd");
}

}  // namespace
}  // namespace snapshotter
