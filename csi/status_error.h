// A failed call's gRPC status as a base::Error, without gRPC itself: the part
// of csi/errors.h that the gRPC-free client (csi_lite/) shares.
//
// A gRPC-domain base::Error (base::Error::Grpc) carries the status code
// (1..16; OK never appears in an error) and reads like Go's status error,
// `rpc error: code = Internal desc = boom`, because the attacher copies it
// verbatim into VolumeAttachment status where users and tools already match
// upstream's text.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace csi {

// gRPC's status codes, named for code that does not include gRPC.
namespace codes {
inline constexpr int kOk = 0;
inline constexpr int kUnknown = 2;
inline constexpr int kDeadlineExceeded = 4;
inline constexpr int kPermissionDenied = 7;
inline constexpr int kResourceExhausted = 8;
inline constexpr int kUnimplemented = 12;
inline constexpr int kInternal = 13;
inline constexpr int kUnavailable = 14;
inline constexpr int kUnauthenticated = 16;
}  // namespace codes

// The text of a call that ran out of its own deadline, as Go's context says it.
inline constexpr std::string_view kDeadlineExceededMessage = "context deadline exceeded";

// The error for a failed call's `code` (not OK) and description. gRPC C++'s
// text for a deadline that passed, "Deadline Exceeded" - the client's own or
// the driver's, which the grpc-timeout header set to the same instant, so
// either may come first - reads "context deadline exceeded", as in Go.
base::Error StatusError(int code, std::string_view desc);

// Whether `error` is a failed call's gRPC status with `code`.
bool IsGrpcCode(const base::Error& error, int code);

// A gRPC code as upstream names it in metrics and messages: Go's
// codes.Code.String() ("OK", "DeadlineExceeded", ..., "Code(17)").
std::string CodeName(int code);

// What Go's status.Message() gives for `error`: a gRPC error's description
// without the "rpc error: code = ... desc = " before it; any other error's
// whole message.
std::string GrpcMessage(const base::Error& error);

}  // namespace csi
