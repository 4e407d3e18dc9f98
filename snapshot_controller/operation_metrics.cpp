#include "snapshot_controller/operation_metrics.h"

#include <chrono>
#include <vector>

#include "metrics/process_collector.h"

namespace snapshot_controller {
namespace {

constexpr std::string_view kUnknownDriver = "unknown";

std::string_view TypeLabel(SnapshotType type) {
  return type == SnapshotType::kDynamic ? "dynamic" : "pre-provisioned";
}

std::string_view StatusLabel(OperationStatus status) {
  switch (status) {
    case OperationStatus::kSuccess:
      return "success";
    case OperationStatus::kCancel:
      return "cancel";
    case OperationStatus::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace

OperationMetrics::OperationMetrics(metrics::Registry& registry, base::Clock& clock)
    : clock_(clock),
      latency_(registry.AddHistogram(
          {.name = "snapshot_controller_operation_total_seconds",
           .help = "Total number of seconds spent by the controller on an operation",
           .stability = metrics::Stability::kAlpha,
           .label_names = {"driver_name", "operation_name", "snapshot_type", "operation_status"}},
          {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120, 300, 600})),
      in_flight_(registry
                     .AddGauge({.name = "snapshot_controller_operations_in_flight",
                                .help = "Total number of operations in flight",
                                .stability = metrics::Stability::kAlpha})
                     .WithLabels({})) {
  metrics::RegisterProcessCollector(registry);
}

void OperationMetrics::Start(std::string_view operation, std::string_view snapshot_uid,
                             std::string_view driver, SnapshotType type) {
  std::lock_guard lock(mu_);
  running_.try_emplace(
      Key(operation, snapshot_uid),
      Running{std::string(driver.empty() ? kUnknownDriver : driver), type, clock_.Now()});
  in_flight_.Set(static_cast<double>(running_.size()));
}

void OperationMetrics::Drop(std::string_view operation, std::string_view snapshot_uid) {
  std::lock_guard lock(mu_);
  running_.erase(Key(operation, snapshot_uid));
  in_flight_.Set(static_cast<double>(running_.size()));
}

void OperationMetrics::Record(std::string_view operation, std::string_view snapshot_uid,
                              OperationStatus status, std::string_view driver) {
  std::lock_guard lock(mu_);
  auto it = running_.find(Key(operation, snapshot_uid));
  if (it == running_.end()) return;
  const double seconds = std::chrono::duration<double>(clock_.Now() - it->second.start).count();
  ObserveLocked(it, driver, status, seconds);
  std::vector<std::string_view> pending_creates;
  if (operation == kDeleteSnapshotOperation) {
    pending_creates = {kCreateSnapshotOperation, kCreateSnapshotAndReadyOperation};
  } else if (operation == kDeleteGroupSnapshotOperation) {
    pending_creates = {kCreateGroupSnapshotOperation, kCreateGroupSnapshotAndReadyOperation};
  }
  for (std::string_view pending : pending_creates) {
    auto create = running_.find(Key(pending, snapshot_uid));
    if (create != running_.end()) ObserveLocked(create, "", OperationStatus::kCancel, seconds);
  }
  in_flight_.Set(static_cast<double>(running_.size()));
}

size_t OperationMetrics::InFlight() const {
  std::lock_guard lock(mu_);
  return running_.size();
}

void OperationMetrics::ObserveLocked(std::map<Key, Running>::iterator it, std::string_view driver,
                                     OperationStatus status, double seconds) {
  const std::string& label_driver =
      driver.empty() || driver == kUnknownDriver ? it->second.driver : std::string(driver);
  latency_
      .WithLabels({label_driver, it->first.first, std::string(TypeLabel(it->second.type)),
                   std::string(StatusLabel(status))})
      .Observe(seconds);
  running_.erase(it);
}

}  // namespace snapshot_controller
