// CallScope: what every RPC of the fault driver does around its real work —
// take the call's fault from faults.json, sleep its delay and the configured
// latency, hang until the caller gives up, fail early or after the work
// (after_success), and record the call exactly once. Used on the stack of one
// handler; not shared.
#pragma once

#include <google/protobuf/map.h>
#include <google/protobuf/message.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/status.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tests/fault_csi_driver/call_recorder.h"
#include "tests/fault_csi_driver/fault_plan.h"
#include "tests/fault_csi_driver/fault_source.h"
#include "tests/fault_csi_driver/options.h"
#include "tests/fault_csi_driver/shutdown_signal.h"
#include "tests/fault_csi_driver/snapshot_registry.h"
#include "tests/fault_csi_driver/volume_registry.h"

namespace faultdriver {

// The driver's shared parts; all outlive the gRPC server.
struct DriverContext {
  const DriverOptions* options;
  VolumeRegistry* registry;
  SnapshotRegistry* snapshots;
  FaultSource* faults;
  CallRecorder* recorder;
  ShutdownSignal* shutdown;
};

class CallScope {
 public:
  // `context` is the call's own, for a hang fault to see the caller give up.
  CallScope(const DriverContext& driver, const grpc::ServerContext* context, std::string method);
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // The volume and node the call is about: recorded, and matched against the
  // rules' volume_id/node_id filters.
  void SetTarget(const std::string& volume_id, const std::string& node_id);
  // The snapshot a snapshot call is about and its source volume, matched
  // against the rules' snapshot_name/volume_id filters (the handler records
  // the request's own fields).
  void SetSnapshotTarget(const std::string& snapshot_name, const std::string& volume_id);
  // The volume a CreateVolume or DeleteVolume call is about, matched against
  // the rules' volume_name/volume_id filters (the handler records the
  // request's own fields).
  void SetVolumeTarget(const std::string& volume_name, const std::string& volume_id);
  // The segment a GetCapacity call asks about, matched against the rules'
  // segment filter.
  void SetSegmentTarget(const std::string& segment) { target_.segment = segment; }
  // Extra request fields to record (never secret values).
  nlohmann::json& request() { return record_.request; }
  const nlohmann::json& request() const { return record_.request; }
  // What a successful answer said that tests may want to check.
  nlohmann::json& response() { return record_.response; }

  // Takes the fault, sleeps its delay, then `latency`, then hangs if the fault
  // says so. Returns the answer when the call must end now: an injected error
  // (or the caller's DEADLINE_EXCEEDED/CANCELLED after a hang) without
  // after_success, or UNAVAILABLE when shutdown cut a wait short. Call
  // Finish() with it.
  std::optional<grpc::Status> Begin(std::chrono::nanoseconds latency = {});
  // The fault Begin() took, if any.
  const std::optional<FaultRule>& fault() const { return fault_; }
  // The answer came from the fault although no error did (Probe's ready).
  void MarkInjected() { record_.injected = true; }

  // Whether the caller has stopped waiting (its deadline passed or it
  // cancelled): work done now is work it never hears about.
  bool CallerGaveUp() const;

  // The status Finish(status) answers with: a successful `status` replaced by
  // an after_success fault's error. For counters of calls answered OK, which
  // must be in the state file Finish writes.
  grpc::Status Answer(const grpc::Status& status) const;
  // Records the call and returns Answer(status).
  grpc::Status Finish(const grpc::Status& status);

 private:
  // False when shutdown came first.
  bool HangUntilCallerGivesUp() const;
  // The answer the caller already saw when it gave up.
  grpc::Status CallerGaveUpStatus() const;

  const DriverContext& driver_;
  const grpc::ServerContext* const context_;
  const std::chrono::steady_clock::time_point start_;
  CallTarget target_;
  std::optional<FaultRule> fault_;
  std::optional<grpc::Status> after_success_error_;
  CallRecord record_;
};

// Secrets are recorded and logged by key only.
nlohmann::json SecretKeys(const google::protobuf::Map<std::string, std::string>& secrets);
nlohmann::json StringMap(const google::protobuf::Map<std::string, std::string>& map);
// A message as JSON with proto field names ("access_mode"), enums by name.
nlohmann::json MessageJson(const google::protobuf::Message& message);

}  // namespace faultdriver
