// FaultPlan: the parsed contents of faults.json (see README.md) and the
// bookkeeping of how many more calls each rule applies to.
//
// Rules are per method ("ControllerPublishVolume", "Probe", ...), tried in file
// order; the first one whose filters match and whose `times` is not used up
// applies to the call and is used up by one. Not thread-safe: FaultSource
// guards it.
#pragma once

#include <grpcpp/support/status_code_enum.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace faultdriver {

// What a call is about, for the rules' filters. Snapshot calls name the
// snapshot and its source volume (looked up by snapshot_id where the request
// has no name), group snapshot calls the group snapshot (no volume),
// CreateVolume and DeleteVolume the volume's name and ID (DeleteVolume looks
// the name up by ID), GetCapacity the segment asked about; empty fields
// match only unfiltered rules.
struct CallTarget {
  std::string volume_id;
  std::string node_id;
  std::string snapshot_name;
  std::string volume_name;
  std::string segment;  // GetCapacity: "k1=v1,k2=v2", keys sorted; "" for none
};

struct FaultRule {
  // Filters; unset matches every call.
  std::optional<std::string> volume_id;
  std::optional<std::string> node_id;
  std::optional<std::string> snapshot_name;
  std::optional<std::string> volume_name;
  std::optional<std::string> segment;
  // OK means "no error", for rules that only delay or (Probe) report not ready.
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string message = "injected fault";
  // Slept before the call does anything else.
  std::chrono::nanoseconds delay{0};
  // Calls left; -1 is forever.
  int64_t times = -1;
  // Do the real work first, then report the error ("attached but reported failure").
  bool after_success = false;
  // Wait until the caller gives up (its deadline passes or it cancels); the
  // call then ends without work, or does it unseen with after_success.
  bool hang = false;
  // Probe only: the `ready` field to answer with.
  std::optional<bool> ready;
  // CreateSnapshot and CreateVolumeGroupSnapshot only, applied to the
  // snapshot or group the call creates: it is ready from its ready_after-th
  // answer on, or never.
  std::optional<int64_t> ready_after;
  bool never_ready = false;
  // CreateVolume, applied to the volume the call creates, and
  // ControllerExpandVolume, the answer: the capacity whatever was asked for
  // (a driver that rounds down or under-delivers).
  std::optional<int64_t> capacity_bytes;
  // ControllerExpandVolume only: the answer's node_expansion_required.
  bool node_expansion_required = false;
  // GetCapacity only: the answer's available_capacity and maximum_volume_size.
  std::optional<int64_t> available_bytes;
  std::optional<int64_t> maximum_volume_size;

  bool Fails() const { return code != grpc::StatusCode::OK; }
};

// The answer from which on a snapshot or group a create call makes is ready
// (`fault` is the call's): the first unless a rule says otherwise; nullopt is
// never.
inline std::optional<int64_t> ReadyAfterAnswers(const std::optional<FaultRule>& fault) {
  if (!fault) return 1;
  if (fault->never_ready) return std::nullopt;
  return fault->ready_after.value_or(1);
}

class FaultPlan {
 public:
  // Errors name the offending method/field; the caller keeps its old plan.
  static base::Result<FaultPlan> Parse(std::string_view json);

  // Uses up the first matching rule for `method` once and returns a copy.
  std::optional<FaultRule> Take(std::string_view method, const CallTarget& target);

  // Volumes to drop from the attachment set when this plan is loaded.
  const std::vector<std::string>& detach_behind_back() const { return detach_behind_back_; }

 private:
  std::map<std::string, std::vector<FaultRule>, std::less<>> rules_;
  std::vector<std::string> detach_behind_back_;
};

}  // namespace faultdriver
