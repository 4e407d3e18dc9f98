#include "tests/fault_csi_driver/status_codes.h"

#include <array>
#include <utility>

namespace faultdriver {
namespace {

constexpr std::array<std::pair<std::string_view, grpc::StatusCode>, 17> kCodes = {{
    {"OK", grpc::StatusCode::OK},
    {"CANCELLED", grpc::StatusCode::CANCELLED},
    {"UNKNOWN", grpc::StatusCode::UNKNOWN},
    {"INVALID_ARGUMENT", grpc::StatusCode::INVALID_ARGUMENT},
    {"DEADLINE_EXCEEDED", grpc::StatusCode::DEADLINE_EXCEEDED},
    {"NOT_FOUND", grpc::StatusCode::NOT_FOUND},
    {"ALREADY_EXISTS", grpc::StatusCode::ALREADY_EXISTS},
    {"PERMISSION_DENIED", grpc::StatusCode::PERMISSION_DENIED},
    {"RESOURCE_EXHAUSTED", grpc::StatusCode::RESOURCE_EXHAUSTED},
    {"FAILED_PRECONDITION", grpc::StatusCode::FAILED_PRECONDITION},
    {"ABORTED", grpc::StatusCode::ABORTED},
    {"OUT_OF_RANGE", grpc::StatusCode::OUT_OF_RANGE},
    {"UNIMPLEMENTED", grpc::StatusCode::UNIMPLEMENTED},
    {"INTERNAL", grpc::StatusCode::INTERNAL},
    {"UNAVAILABLE", grpc::StatusCode::UNAVAILABLE},
    {"DATA_LOSS", grpc::StatusCode::DATA_LOSS},
    {"UNAUTHENTICATED", grpc::StatusCode::UNAUTHENTICATED},
}};

}  // namespace

std::optional<grpc::StatusCode> ParseStatusCode(std::string_view name) {
  for (const auto& [text, code] : kCodes) {
    if (text == name) return code;
  }
  return std::nullopt;
}

std::string StatusCodeName(grpc::StatusCode code) {
  for (const auto& [text, value] : kCodes) {
    if (value == code) return std::string(text);
  }
  return "CODE_" + std::to_string(static_cast<int>(code));
}

grpc::Status InvalidArgument(const std::string& message) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, message);
}

grpc::Status NotAdvertised(const std::string& capability) {
  return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, capability + " is not advertised");
}

}  // namespace faultdriver
