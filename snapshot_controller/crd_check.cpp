#include "snapshot_controller/crd_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/log.h"
#include "component/exit_codes.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/resource.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshot_controller {
namespace {

using namespace std::chrono_literals;

// Upstream's backoff (docs/snapshots.md §4.1).
constexpr base::Clock::Duration kFirstPause = 100ms;
constexpr double kPauseFactor = 1.5;
constexpr std::chrono::nanoseconds kShortestWait = 1s;

// What upstream's context reports at its deadline.
constexpr std::string_view kDeadlineExceeded = "context deadline exceeded";

struct CrdList {
  std::string_view plural;
  std::string path;  // the collection, all namespaces
};

template <class T>
CrdList ListOf() {
  return {T::kFacts.plural, kube::ResourcePath<T>("")};
}

const std::vector<CrdList>& SnapshotLists() {
  static const std::vector<CrdList> lists = {ListOf<kube::VolumeSnapshot>(),
                                             ListOf<kube::VolumeSnapshotClass>(),
                                             ListOf<kube::VolumeSnapshotContent>()};
  return lists;
}

const std::vector<CrdList>& GroupSnapshotLists() {
  static const std::vector<CrdList> lists = {ListOf<kube::VolumeGroupSnapshot>(),
                                             ListOf<kube::VolumeGroupSnapshotClass>(),
                                             ListOf<kube::VolumeGroupSnapshotContent>()};
  return lists;
}

// Lists each kind in turn; the first failure is logged and ends the round.
bool AllListed(kube::Client& client, const std::vector<CrdList>& lists) {
  for (const CrdList& list : lists) {
    if (base::Result<std::string> body = client.Request("GET", list.path + "?limit=1");
        !body.ok()) {
      LOG_ERROR(
          fmt::format("Failed to list v1 {} with error={}", list.plural, body.error().message));
      return false;
    }
  }
  return true;
}

enum class WaitOutcome { kServed, kDeadlineExceeded, kStopped };

WaitOutcome WaitUntilListed(kube::Client& client, const std::vector<CrdList>& lists,
                            const CrdWait& wait) {
  const base::Clock::TimePoint deadline =
      wait.clock.Now() + std::chrono::duration_cast<base::Clock::Duration>(
                             std::max(wait.retry_crd_interval_max, kShortestWait));
  for (base::Clock::Duration pause = kFirstPause;;
       pause = base::Clock::Duration(static_cast<int64_t>(pause.count() * kPauseFactor))) {
    if (AllListed(client, lists)) return WaitOutcome::kServed;
    const base::Clock::TimePoint wake = std::min(wait.clock.Now() + pause, deadline);
    if (!wait.clock.SleepUntil(wake, wait.stop)) return WaitOutcome::kStopped;
    if (wake == deadline) return WaitOutcome::kDeadlineExceeded;
  }
}

}  // namespace

std::optional<int> EnsureSnapshotCrds(kube::Client& client, const CrdWait& wait) {
  switch (WaitUntilListed(client, SnapshotLists(), wait)) {
    case WaitOutcome::kServed:
      return std::nullopt;
    case WaitOutcome::kStopped:
      return component::StoppedDuringStartup("snapshot CRD check");
    case WaitOutcome::kDeadlineExceeded:
      break;
  }
  return component::Fail(fmt::format(
      "Exiting due to failure to ensure CRDs exist during startup: {}", kDeadlineExceeded));
}

GroupSnapshotsCheck StartGroupSnapshots(bool gate_enabled, kube::Client& client,
                                        const CrdWait& wait) {
  if (!gate_enabled) return {};
  switch (WaitUntilListed(client, GroupSnapshotLists(), wait)) {
    case WaitOutcome::kServed:
      return {.enabled = true, .exit = std::nullopt};
    case WaitOutcome::kStopped:
      return {.enabled = false,
              .exit = component::StoppedDuringStartup("group snapshot CRD check")};
    case WaitOutcome::kDeadlineExceeded:
      break;
  }
  LOG_WARNING(fmt::format(
      "VolumeGroupSnapshot CRDs were not found; disabling the VolumeGroupSnapshot feature for "
      "this run. Install the VolumeGroupSnapshot CRDs to use this feature: {}",
      kDeadlineExceeded));
  return {};
}

}  // namespace snapshot_controller
