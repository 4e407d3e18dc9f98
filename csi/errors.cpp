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
  return base::Error(fmt::format("rpc error: code = {} desc = {}", CodeName(code), desc), code);
}

bool IsGrpcError(const base::Error& error) {
  return error.code > 0 && error.code < static_cast<int>(kCodeNames.size());
}

std::string CodeName(int code) {
  if (code == kNonGrpcCode) return "unknown-non-grpc";
  if (code >= 0 && code < static_cast<int>(kCodeNames.size())) return std::string(kCodeNames[code]);
  return fmt::format("Code({})", code);
}

bool IsFinalError(const base::Error& error) {
  if (!IsGrpcError(error)) return true;
  switch (error.code) {
    case grpc::StatusCode::CANCELLED:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
    case grpc::StatusCode::ABORTED:
      return false;
    default:
      return true;
  }
}

}  // namespace csi
