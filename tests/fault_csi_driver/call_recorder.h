// CallRecorder: one stderr line per call and, with --state-file, a JSON file
// rewritten after every call with all calls so far plus the registries'
// counters, attachment set and existing volumes, snapshots and group
// snapshots (format in README.md).
//
// The file is replaced atomically (write + rename), so a test reading it while
// calls run never sees half a document, and before the call is answered, so a
// test reads it right after a call returns. Each rewrite snapshots the
// registries under the recorder's lock, so the last write always holds the
// final back-end state. Rewrites are group commits (one rewrite answers every
// call recorded while the previous one was being written) and calls are kept
// pre-encoded, one line each, so concurrent calls do not queue behind the
// file. It is still O(calls) per rewrite: benchmarks run without
// --state-file. Thread-safe.
#pragma once

#include <grpcpp/support/status_code_enum.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/fault_csi_driver/snapshot_registry.h"
#include "tests/fault_csi_driver/volume_registry.h"

namespace faultdriver {

struct CallRecord {
  std::string method;  // short name, "ControllerPublishVolume"
  // What the driver saw; secrets appear as their keys only.
  nlohmann::json request = nlohmann::json::object();
  // Notable parts of a successful answer (publish_context, Probe's ready, snapshots).
  nlohmann::json response = nlohmann::json::object();
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string message = {};
  bool injected = false;  // the error (or Probe answer) came from faults.json
  std::chrono::nanoseconds duration{0};
};

class CallRecorder {
 public:
  // An empty `state_file` only logs. The registries must outlive the recorder.
  CallRecorder(std::string state_file, std::string driver_name, const VolumeRegistry* volumes,
               const SnapshotRegistry* snapshots);

  void Record(CallRecord call);

 private:
  // The whole state file as of now. Needs mu_.
  std::string RenderLocked() const;
  void WriteStateFile(const std::string& text) const;

  const std::string state_file_;
  const std::string driver_name_;
  const VolumeRegistry* const volumes_;
  const SnapshotRegistry* const snapshots_;

  std::mutex mu_;
  std::condition_variable written_;
  int64_t call_count_ = 0;     // guarded by mu_
  int64_t written_count_ = 0;  // guarded by mu_: calls the state file holds
  bool writing_ = false;       // guarded by mu_: one writer at a time, in order
  std::string calls_text_;     // guarded by mu_: one JSON object per call, comma-separated lines
};

}  // namespace faultdriver
