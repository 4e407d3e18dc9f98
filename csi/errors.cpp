#include "csi/errors.h"

#include <fmt/format.h>
#include <grpcpp/support/status.h>

#include <array>
#include <string_view>

namespace csi {
namespace {

constexpr std::array<std::string_view, 17> kCodeNames = {
    "OK",       "Canceled",        "Unknown",          "InvalidArgument",   "DeadlineExceeded",
    "NotFound", "AlreadyExists",   "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
    "Aborted",  "OutOfRange",      "Unimplemented",    "Internal",          "Unavailable",
    "DataLoss", "Unauthenticated",
};

// The text gRPC C++ gives a call whose own deadline expired.
constexpr std::string_view kClientDeadlineMessage = "Deadline Exceeded";

}  // namespace

base::Error ErrorFromStatus(const grpc::Status& status) {
  int code = status.error_code();
  std::string desc = status.error_message();
  if (code == grpc::StatusCode::DEADLINE_EXCEEDED && desc == kClientDeadlineMessage) {
    desc = "context deadline exceeded";
  }
  return base::Error::Grpc(code,
                           fmt::format("rpc error: code = {} desc = {}", CodeName(code), desc));
}

bool IsGrpcCode(const base::Error& error, int code) { return error.IsGrpc() && error.code == code; }

std::string CodeName(int code) {
  if (code >= 0 && code < static_cast<int>(kCodeNames.size())) return std::string(kCodeNames[code]);
  return fmt::format("Code({})", code);
}

std::string GrpcMessage(const base::Error& error) {
  constexpr std::string_view kDesc = " desc = ";
  const size_t at = error.message.find(kDesc);
  if (!error.IsGrpc() || !error.message.starts_with("rpc error: code = ") ||
      at == std::string::npos) {
    return error.message;
  }
  return error.message.substr(at + kDesc.size());
}

}  // namespace csi
