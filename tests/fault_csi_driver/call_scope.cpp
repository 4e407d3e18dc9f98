#include "tests/fault_csi_driver/call_scope.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace faultdriver {

CallScope::CallScope(const DriverContext& driver, std::string method)
    : driver_(driver), start_(std::chrono::steady_clock::now()) {
  record_.method = std::move(method);
}

void CallScope::SetTarget(const std::string& volume_id, const std::string& node_id) {
  volume_id_ = volume_id;
  node_id_ = node_id;
  record_.request["volume_id"] = volume_id;
  record_.request["node_id"] = node_id;
}

std::optional<grpc::Status> CallScope::Begin(std::chrono::nanoseconds latency) {
  fault_ = driver_.faults->Take(record_.method, volume_id_, node_id_);
  bool slept = true;
  if (fault_) slept = driver_.shutdown->SleepFor(fault_->delay);
  if (slept) slept = driver_.shutdown->SleepFor(latency);
  if (!slept) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "fault driver shutting down");
  if (fault_ && fault_->Fails() && !fault_->after_success) {
    record_.injected = true;
    return grpc::Status(fault_->code, fault_->message);
  }
  return std::nullopt;
}

grpc::Status CallScope::Finish(grpc::Status status) {
  if (status.ok() && fault_ && fault_->Fails() && fault_->after_success) {
    record_.injected = true;
    status = grpc::Status(fault_->code, fault_->message);
  }
  record_.code = status.error_code();
  record_.message = status.error_message();
  record_.duration = std::chrono::steady_clock::now() - start_;
  driver_.recorder->Record(std::move(record_));
  return status;
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
