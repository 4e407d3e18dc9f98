// gRPC status code names as faults.json spells them ("DEADLINE_EXCEEDED"),
// the same names Go's codes.Code.String() uses upper-cased, so test authors
// can copy them from a real driver's error; and the statuses the handlers
// answer a malformed request (INVALID_ARGUMENT) and an RPC whose capability
// is switched off (UNIMPLEMENTED) with.
#pragma once

#include <grpcpp/support/status.h>
#include <grpcpp/support/status_code_enum.h>

#include <optional>
#include <string>
#include <string_view>

namespace faultdriver {

std::optional<grpc::StatusCode> ParseStatusCode(std::string_view name);
std::string StatusCodeName(grpc::StatusCode code);

grpc::Status InvalidArgument(const std::string& message);
// `capability` is its CSI name, "CREATE_DELETE_SNAPSHOT".
grpc::Status NotAdvertised(const std::string& capability);

}  // namespace faultdriver
