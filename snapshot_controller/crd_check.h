// The snapshot-controller's CRD checks at start-up (docs/snapshots.md §4.1):
// the snapshot kinds must be served before anything watches them, and the
// group kinds decide whether group snapshots run. A check lists its three
// kinds with limit=1 (only the answer matters), in upstream's order and
// stopping at the first failure, which is logged in upstream's words
// ("Failed to list v1 <plural> with error=<error>"). It tries again after
// 100 ms, each pause 1.5 times the one before, until max(--retry-crd-interval-max,
// 1 s) has passed since it began; a pause never runs past that deadline.
// A request in flight at the deadline finishes first (bounded by the client's
// request timeout).
#pragma once

#include <chrono>
#include <optional>
#include <stop_token>

#include "base/clock.h"
#include "kube/client/client.h"

namespace snapshot_controller {

struct CrdWait {
  std::chrono::nanoseconds retry_crd_interval_max;  // --retry-crd-interval-max
  base::Clock& clock;
  std::stop_token stop;  // a graceful stop during start-up
};

// VolumeSnapshots (all namespaces), VolumeSnapshotClasses, then
// VolumeSnapshotContents. Returns the exit code when start-up ends here: 1
// when they are not all served by the deadline, logged as upstream
// ("Exiting due to failure to ensure CRDs exist during startup: context
// deadline exceeded"); 0 when `wait.stop` is requested meanwhile.
std::optional<int> EnsureSnapshotCrds(kube::Client& client, const CrdWait& wait);

// Whether this process runs group snapshots (docs/snapshots.md §1 "Feature
// gates", §4.1), and the exit code when start-up ends during the check.
struct GroupSnapshotsCheck {
  bool enabled = false;
  std::optional<int> exit = {};  // 0: `wait.stop` was requested during the wait
};

// With the CSIVolumeGroupSnapshot gate off (`gate_enabled` false): off, and
// nothing asked. On: VolumeGroupSnapshots, VolumeGroupSnapshotClasses, then
// VolumeGroupSnapshotContents, waited for as the snapshot kinds. Served →
// on. Not served by the deadline → upstream's one warning, and groups stay
// off for this process; single snapshots are not affected.
GroupSnapshotsCheck StartGroupSnapshots(bool gate_enabled, kube::Client& client,
                                        const CrdWait& wait);

}  // namespace snapshot_controller
