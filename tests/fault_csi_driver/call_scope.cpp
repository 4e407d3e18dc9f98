#include "tests/fault_csi_driver/call_scope.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace faultdriver {

// How often a hanging call looks whether its caller has given up; the
// caller's own deadline, not this, decides what it sees.
constexpr auto kHangPollInterval = std::chrono::milliseconds(10);
// The deadline this side knows is the caller's timeout counted from when the
// request arrived, so it trails the caller's own: the caller's cancel at its
// deadline can reach a busy driver before the driver's copy passes. A cancel
// this close to the deadline is the caller's deadline, not a cancel of its own.
constexpr auto kDeadlineSkew = std::chrono::seconds(1);

CallScope::CallScope(const DriverContext& driver, const grpc::ServerContext* context,
                     std::string method)
    : driver_(driver), context_(context), start_(std::chrono::steady_clock::now()) {
  record_.method = std::move(method);
}

void CallScope::SetTarget(const std::string& volume_id, const std::string& node_id) {
  target_.volume_id = volume_id;
  target_.node_id = node_id;
  record_.request["volume_id"] = volume_id;
  record_.request["node_id"] = node_id;
}

void CallScope::SetSnapshotTarget(const std::string& snapshot_name, const std::string& volume_id) {
  target_.snapshot_name = snapshot_name;
  target_.volume_id = volume_id;
}

void CallScope::SetVolumeTarget(const std::string& volume_name, const std::string& volume_id) {
  target_.volume_name = volume_name;
  target_.volume_id = volume_id;
}

std::optional<grpc::Status> CallScope::Begin(std::chrono::nanoseconds latency) {
  const grpc::Status shutting_down(grpc::StatusCode::UNAVAILABLE, "fault driver shutting down");
  fault_ = driver_.faults->Take(record_.method, target_);
  if (fault_ && !driver_.shutdown->SleepFor(fault_->delay)) return shutting_down;
  if (!driver_.shutdown->SleepFor(latency)) return shutting_down;
  if (!fault_) return std::nullopt;
  if (fault_->hang && !HangUntilCallerGivesUp()) return shutting_down;

  std::optional<grpc::Status> injected;
  if (fault_->hang) {
    injected = CallerGaveUpStatus();
  } else if (fault_->Fails()) {
    injected = grpc::Status(fault_->code, fault_->message);
  }
  if (injected && fault_->after_success) {
    after_success_error_ = std::move(injected);
    return std::nullopt;
  }
  if (injected) record_.injected = true;
  return injected;
}

// A hung driver never answers before its caller gives up: it waits for the
// caller's cancel, which gRPC also raises when the deadline passes, and only
// answers itself well after the deadline. Answering at the deadline raced the
// caller's own timer, and the caller then saw this side's status text.
bool CallScope::HangUntilCallerGivesUp() const {
  while (!context_->IsCancelled() &&
         std::chrono::system_clock::now() - kDeadlineSkew < context_->deadline()) {
    if (!driver_.shutdown->SleepFor(kHangPollInterval)) return false;
  }
  return true;
}

bool CallScope::CallerGaveUp() const {
  return context_->IsCancelled() || std::chrono::system_clock::now() >= context_->deadline();
}

grpc::Status CallScope::CallerGaveUpStatus() const {
  if (std::chrono::system_clock::now() + kDeadlineSkew >= context_->deadline()) {
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "caller's deadline passed in a hang");
  }
  return grpc::Status(grpc::StatusCode::CANCELLED, "caller cancelled during a hang");
}

grpc::Status CallScope::Answer(const grpc::Status& status) const {
  if (status.ok() && after_success_error_) return *after_success_error_;
  return status;
}

grpc::Status CallScope::Finish(const grpc::Status& status) {
  if (status.ok() && after_success_error_) record_.injected = true;
  grpc::Status answer = Answer(status);
  record_.code = answer.error_code();
  record_.message = answer.error_message();
  record_.duration = std::chrono::steady_clock::now() - start_;
  driver_.recorder->Record(std::move(record_));
  return answer;
}

nlohmann::json SecretKeys(const google::protobuf::Map<std::string, std::string>& secrets) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : secrets) keys.push_back(key);
  std::sort(keys.begin(), keys.end());  // protobuf maps have no stable order
  return keys;
}

nlohmann::json StringMap(const google::protobuf::Map<std::string, std::string>& map) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [key, value] : map) object[key] = value;
  return object;
}

nlohmann::json MessageJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string text;
  if (!google::protobuf::util::MessageToJsonString(message, &text, options).ok()) return nullptr;
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace faultdriver
