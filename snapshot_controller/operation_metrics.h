// OperationMetrics: the snapshot-controller's own metrics (docs/snapshots.md
// §4.6), in the registry served on --http-endpoint:
//   - snapshot_controller_operation_total_seconds, a histogram labelled
//     driver_name, operation_name, snapshot_type, operation_status;
//   - snapshot_controller_operations_in_flight, the operations started and
//     not yet recorded.
// An operation is keyed by (name, VolumeSnapshot or VolumeGroupSnapshot UID)
// and timed from its first Start to its Record; starting it again keeps the
// first start. Recording a DeleteSnapshot also records the snapshot's pending
// CreateSnapshot and CreateSnapshotAndReady as "cancel" with the same
// duration, as upstream does when a snapshot is deleted before it is ready;
// a DeleteGroupSnapshot likewise cancels the group's pending creates (where
// upstream leaves them in flight for good, §4.7).
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "base/clock.h"
#include "metrics/registry.h"

namespace snapshot_controller {

inline constexpr std::string_view kCreateSnapshotOperation = "CreateSnapshot";
inline constexpr std::string_view kCreateSnapshotAndReadyOperation = "CreateSnapshotAndReady";
inline constexpr std::string_view kDeleteSnapshotOperation = "DeleteSnapshot";
inline constexpr std::string_view kCreateGroupSnapshotOperation = "CreateGroupSnapshot";
inline constexpr std::string_view kCreateGroupSnapshotAndReadyOperation =
    "CreateGroupSnapshotAndReady";
inline constexpr std::string_view kDeleteGroupSnapshotOperation = "DeleteGroupSnapshot";

enum class SnapshotType { kDynamic, kPreProvisioned };
enum class OperationStatus { kSuccess, kCancel, kUnknown };

class OperationMetrics {
 public:
  // Registers both families (and the process_* ones) in `registry`, which
  // must outlive this object, as must `clock`.
  OperationMetrics(metrics::Registry& registry, base::Clock& clock);
  OperationMetrics(const OperationMetrics&) = delete;
  OperationMetrics& operator=(const OperationMetrics&) = delete;

  // Starts timing the operation unless it already runs. An empty driver is
  // recorded as "unknown".
  void Start(std::string_view operation, std::string_view snapshot_uid, std::string_view driver,
             SnapshotType type);
  // Forgets the operation without recording it.
  void Drop(std::string_view operation, std::string_view snapshot_uid);
  // Observes the time since Start under `status`; nothing when the operation
  // is not running. `driver` replaces the one given to Start unless it is
  // empty or "unknown".
  void Record(std::string_view operation, std::string_view snapshot_uid, OperationStatus status,
              std::string_view driver);

  size_t InFlight() const;

 private:
  using Key = std::pair<std::string, std::string>;  // (operation, snapshot UID)
  struct Running {
    std::string driver;
    SnapshotType type;
    base::Clock::TimePoint start;
  };

  // Observes and forgets `it`; mu_ held.
  void ObserveLocked(std::map<Key, Running>::iterator it, std::string_view driver,
                     OperationStatus status, double seconds);

  base::Clock& clock_;
  metrics::HistogramFamily& latency_;
  metrics::Gauge& in_flight_;
  mutable std::mutex mu_;  // guards running_ and in_flight_'s value
  std::map<Key, Running> running_;
};

}  // namespace snapshot_controller
