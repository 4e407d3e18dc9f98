// docs/snapshots.md §4.3 "Copying the status": what a VolumeSnapshot's status
// takes from its content, and the Normal events SnapshotCreated and
// SnapshotReady with upstream's messages.
#include "snapshot_controller/snapshot_status.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace snapshot_controller {
namespace {

using Status = kube::VolumeSnapshotStatus;
using ContentStatus = kube::VolumeSnapshotContentStatus;
using Error = kube::VolumeSnapshotError;

constexpr int64_t kCreatedNs = 1700000000123456789;  // 2023-11-14T22:13:20.123456789Z
constexpr std::string_view kCreated = "2023-11-14T22:13:20Z";

const SnapshotNormalEvent kCreatedEvent = {
    "SnapshotCreated", "Snapshot team-a/snap-1 was successfully created by the CSI driver."};
const SnapshotNormalEvent kReadyEvent = {"SnapshotReady",
                                         "Snapshot team-a/snap-1 is ready to use."};

struct StatusCase {
  std::string rule;
  std::optional<Status> current = {};
  std::optional<ContentStatus> content = {};
  std::optional<Status> expected = {};  // nullopt = no change
  std::vector<SnapshotNormalEvent> events = {};
  std::string group_snapshot_name = "";
};

Status Bound(Status status) {
  status.bound_volume_snapshot_content_name = "snapcontent-42";
  return status;
}

TEST(SnapshotStatusFromContent, CopiesTheContentsStatusAsUpstreamDoes) {
  const Error timed_error = {.time = "2026-11-22T14:12:40Z", .message = "driver failed"};
  const Error other_timed_error = {.time = "2026-11-22T14:13:00Z", .message = "failed again"};
  const Error untimed_error = {.time = {}, .message = "no time"};
  const std::vector<StatusCase> cases = {
      {.rule = "nil status, content without status: bound and not ready",
       .current = {},
       .content = {},
       .expected = Bound({.ready_to_use = false})},
      {.rule = "nil status gets everything, both events",
       .current = {},
       .content = ContentStatus{.snapshot_handle = "h",
                                .creation_time = kCreatedNs,
                                .restore_size = 107374182400,
                                .ready_to_use = true},
       .expected = Bound(
           {.creation_time = std::string(kCreated), .ready_to_use = true, .restore_size = "100Gi"}),
       .events = {kCreatedEvent, kReadyEvent}},
      {.rule = "nil status takes a zero restore size and the error",
       .current = {},
       .content = ContentStatus{.restore_size = 0, .ready_to_use = false, .error = timed_error},
       .expected = Bound({.ready_to_use = false, .restore_size = "0", .error = timed_error})},
      {.rule = "nil status takes the group snapshot's name",
       .current = {},
       .content = ContentStatus{.ready_to_use = false},
       .expected = Bound({.ready_to_use = false, .volume_group_snapshot_name = "group-1"}),
       .group_snapshot_name = "group-1"},
      {.rule = "creationTime appears: SnapshotCreated",
       .current = Bound({.ready_to_use = false}),
       .content = ContentStatus{.creation_time = kCreatedNs, .ready_to_use = false},
       .expected = Bound({.creation_time = std::string(kCreated), .ready_to_use = false}),
       .events = {kCreatedEvent}},
      {.rule = "an existing creationTime is kept",
       .current = Bound({.creation_time = "2020-01-01T00:00:00Z", .ready_to_use = true}),
       .content = ContentStatus{.creation_time = kCreatedNs, .ready_to_use = true},
       .expected = {}},
      {.rule = "readyToUse false to true: SnapshotReady, error cleared",
       .current = Bound(
           {.creation_time = std::string(kCreated), .ready_to_use = false, .error = timed_error}),
       .content = ContentStatus{.creation_time = kCreatedNs, .ready_to_use = true},
       .expected = Bound({.creation_time = std::string(kCreated), .ready_to_use = true}),
       .events = {kReadyEvent}},
      {.rule = "readyToUse true to false follows the content, no event",
       .current = Bound({.ready_to_use = true}),
       .content = ContentStatus{.ready_to_use = false},
       .expected = Bound({.ready_to_use = false})},
      {.rule = "readyToUse missing on the content means false",
       .current = Bound({.ready_to_use = true}),
       .content = ContentStatus{.snapshot_handle = "h"},
       .expected = Bound({.ready_to_use = false})},
      {.rule = "a missing bound name is filled",
       .current = Status{.ready_to_use = false},
       .content = ContentStatus{.ready_to_use = false},
       .expected = Bound({.ready_to_use = false})},
      {.rule = "a zero restore size is replaced by a positive one",
       .current = Bound({.ready_to_use = true, .restore_size = "0Gi"}),
       .content = ContentStatus{.restore_size = 1536, .ready_to_use = true},
       .expected = Bound({.ready_to_use = true, .restore_size = "1536"})},
      {.rule = "a zero restore size stays when the content's is zero too",
       .current = Bound({.ready_to_use = true, .restore_size = "0"}),
       .content = ContentStatus{.restore_size = 0, .ready_to_use = true},
       .expected = {}},
      {.rule = "a non-zero restore size is kept",
       .current = Bound({.ready_to_use = true, .restore_size = "1Gi"}),
       .content = ContentStatus{.restore_size = 2147483648, .ready_to_use = true},
       .expected = {}},
      {.rule = "a missing restore size is filled, in canonical form",
       .current = Bound({.ready_to_use = true}),
       .content = ContentStatus{.restore_size = 1000, .ready_to_use = true},
       .expected = Bound({.ready_to_use = true, .restore_size = "1k"})},
      {.rule = "the content's error is copied",
       .current = Bound({.ready_to_use = false}),
       .content = ContentStatus{.ready_to_use = false, .error = timed_error},
       .expected = Bound({.ready_to_use = false, .error = timed_error})},
      {.rule = "a newer timed error replaces a timed one",
       .current = Bound({.ready_to_use = false, .error = timed_error}),
       .content = ContentStatus{.ready_to_use = false, .error = other_timed_error},
       .expected = Bound({.ready_to_use = false, .error = other_timed_error})},
      {.rule = "an error without time is not replaced",
       .current = Bound({.ready_to_use = false, .error = untimed_error}),
       .content = ContentStatus{.ready_to_use = false, .error = timed_error},
       .expected = {}},
      {.rule = "the error goes when the content has none",
       .current = Bound({.ready_to_use = false, .error = timed_error}),
       .content = ContentStatus{.ready_to_use = false},
       .expected = Bound({.ready_to_use = false})},
      {.rule = "the same error: no change",
       .current = Bound({.ready_to_use = false, .error = timed_error}),
       .content = ContentStatus{.ready_to_use = false, .error = timed_error},
       .expected = {}},
      {.rule = "a missing group snapshot name is filled, an existing one kept",
       .current = Bound({.ready_to_use = true}),
       .content = ContentStatus{.ready_to_use = true},
       .expected = Bound({.ready_to_use = true, .volume_group_snapshot_name = "group-1"}),
       .group_snapshot_name = "group-1"},
      {.rule = "an existing group snapshot name is kept",
       .current = Bound({.ready_to_use = true, .volume_group_snapshot_name = "group-0"}),
       .content = ContentStatus{.ready_to_use = true},
       .expected = {},
       .group_snapshot_name = "group-1"},
      {.rule = "already ready and created: no change, no events",
       .current = Bound(
           {.creation_time = std::string(kCreated), .ready_to_use = true, .restore_size = "100Gi"}),
       .content =
           ContentStatus{
               .creation_time = kCreatedNs, .restore_size = 107374182400, .ready_to_use = true},
       .expected = {}},
  };
  for (const StatusCase& c : cases) {
    SCOPED_TRACE(c.rule);
    kube::VolumeSnapshot snapshot;
    snapshot.metadata.namespace_ = "team-a";
    snapshot.metadata.name = "snap-1";
    snapshot.status = c.current;
    kube::VolumeSnapshotContent content;
    content.metadata.name = "snapcontent-42";
    content.status = c.content;
    auto change = SnapshotStatusFromContent(snapshot, content, c.group_snapshot_name);
    if (!c.expected) {
      EXPECT_FALSE(change.has_value());
      continue;
    }
    ASSERT_TRUE(change.has_value());
    EXPECT_EQ(change->status, *c.expected);
    EXPECT_EQ(change->events, c.events);
  }
}

TEST(SnapshotStatusFromContent, CreationTimeIsWholeUtcSecondsOfUnixNanoseconds) {
  struct Case {
    int64_t nanoseconds;
    std::string text;
  };
  // Produced by metav1.NewTime(time.Unix(0, ns)).MarshalJSON(): truncated,
  // also before 1970.
  for (const Case& c : std::vector<Case>{{0, "1970-01-01T00:00:00Z"},
                                         {kCreatedNs, std::string(kCreated)},
                                         {-1, "1969-12-31T23:59:59Z"},
                                         {-1500000000, "1969-12-31T23:59:58Z"}}) {
    kube::VolumeSnapshot snapshot;
    kube::VolumeSnapshotContent content;
    content.status = ContentStatus{.creation_time = c.nanoseconds};
    auto change = SnapshotStatusFromContent(snapshot, content, "");
    ASSERT_TRUE(change.has_value());
    EXPECT_EQ(change->status.creation_time, c.text) << c.nanoseconds;
  }
}

// §4.4: when a content's sync queues its VolumeSnapshot.
TEST(SnapshotStatusLagsContent, QueuesTheSnapshotWhenItsStatusLags) {
  struct Case {
    std::string rule;
    std::optional<Status> current = {};
    std::optional<ContentStatus> content = {};
    bool lags = false;
  };
  const std::vector<Case> cases = {
      {.rule = "content without status", .current = {}, .content = {}, .lags = false},
      {.rule = "content without status, snapshot with one",
       .current = Bound({.ready_to_use = false}),
       .content = {},
       .lags = false},
      {.rule = "snapshot without status",
       .current = {},
       .content = ContentStatus{.snapshot_handle = "h"},
       .lags = true},
      {.rule = "snapshot without bound name",
       .current = Status{.creation_time = std::string(kCreated)},
       .content = ContentStatus{.snapshot_handle = "h"},
       .lags = true},
      {.rule = "creationTime missing on the snapshot",
       .current = Bound({}),
       .content = ContentStatus{.creation_time = kCreatedNs},
       .lags = true},
      {.rule = "readyToUse missing on the snapshot",
       .current = Bound({}),
       .content = ContentStatus{.ready_to_use = false},
       .lags = true},
      {.rule = "both carry readyToUse, even equal",
       .current = Bound({.ready_to_use = true}),
       .content = ContentStatus{.ready_to_use = true},
       .lags = true},
      {.rule = "readyToUse only on the snapshot",
       .current = Bound({.ready_to_use = true}),
       .content = ContentStatus{.snapshot_handle = "h"},
       .lags = false},
      {.rule = "restore size missing on the snapshot",
       .current = Bound({}),
       .content = ContentStatus{.restore_size = 0},
       .lags = true},
      {.rule = "zero restore size on the snapshot, positive on the content",
       .current = Bound({.restore_size = "0"}),
       .content = ContentStatus{.restore_size = 1024},
       .lags = true},
      {.rule = "zero restore size on both",
       .current = Bound({.restore_size = "0"}),
       .content = ContentStatus{.restore_size = 0},
       .lags = false},
      {.rule = "nothing the content has is missing",
       .current = Bound({.creation_time = "2020-01-01T00:00:00Z", .restore_size = "1Gi"}),
       .content =
           ContentStatus{.snapshot_handle = "h", .creation_time = kCreatedNs, .restore_size = 2048},
       .lags = false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.rule);
    kube::VolumeSnapshot snapshot;
    snapshot.status = c.current;
    kube::VolumeSnapshotContent content;
    content.status = c.content;
    EXPECT_EQ(SnapshotStatusLagsContent(snapshot, content), c.lags);
  }
}

}  // namespace
}  // namespace snapshot_controller
