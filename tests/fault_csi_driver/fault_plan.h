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

struct FaultRule {
  // Filters; unset matches every call.
  std::optional<std::string> volume_id;
  std::optional<std::string> node_id;
  // OK means "no error", for rules that only delay or (Probe) report not ready.
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string message = "injected fault";
  // Slept before the call does anything else.
  std::chrono::nanoseconds delay{0};
  // Calls left; -1 is forever.
  int64_t times = -1;
  // Do the real work first, then report the error ("attached but reported failure").
  bool after_success = false;
  // Probe only: the `ready` field to answer with.
  std::optional<bool> ready;

  bool Fails() const { return code != grpc::StatusCode::OK; }
};

class FaultPlan {
 public:
  // Errors name the offending method/field; the caller keeps its old plan.
  static base::Result<FaultPlan> Parse(std::string_view json);

  // Uses up the first matching rule for `method` once and returns a copy.
  std::optional<FaultRule> Take(std::string_view method, std::string_view volume_id,
                                std::string_view node_id);

  // Volumes to drop from the attachment set when this plan is loaded.
  const std::vector<std::string>& detach_behind_back() const { return detach_behind_back_; }

 private:
  std::map<std::string, std::vector<FaultRule>, std::less<>> rules_;
  std::vector<std::string> detach_behind_back_;
};

}  // namespace faultdriver
