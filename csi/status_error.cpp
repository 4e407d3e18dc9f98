#include "csi/status_error.h"

#include <fmt/format.h>

#include <array>

namespace csi {
namespace {

constexpr std::array<std::string_view, 17> kCodeNames = {
    "OK",       "Canceled",        "Unknown",          "InvalidArgument",   "DeadlineExceeded",
    "NotFound", "AlreadyExists",   "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
    "Aborted",  "OutOfRange",      "Unimplemented",    "Internal",          "Unavailable",
    "DataLoss", "Unauthenticated",
};

constexpr std::string_view kGrpcDeadlineMessage = "Deadline Exceeded";

}  // namespace

base::Error StatusError(int code, std::string_view desc) {
  if (code == codes::kDeadlineExceeded && desc == kGrpcDeadlineMessage) {
    desc = kDeadlineExceededMessage;
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
