// How the csi layer reports failures, and how callers classify them.
//
// Every error this layer returns is a base::Error whose `code` is either the
// gRPC status code of the failed call (1..16; OK never appears in an error),
// kept when context is added, or kNonGrpcCode for failures that never got a
// gRPC status (bad address, connect timeout, empty driver name). A gRPC error's
// message reads like Go's status error, `rpc error: code = Internal desc =
// boom`, because the attacher copies it verbatim into VolumeAttachment status
// where users and tools already match upstream's text.
#pragma once

#include <string>

#include "base/result.h"

namespace grpc {
class Status;
}

namespace csi {

// Error::code of failures that did not come from a gRPC status.
inline constexpr int kNonGrpcCode = -1;

// Converts a failed call's status (not OK) into an Error. A client-side
// deadline reads "context deadline exceeded", as it does in Go.
base::Error ErrorFromStatus(const grpc::Status& status);

// Whether `error` carries a gRPC status code.
bool IsGrpcError(const base::Error& error);

// A gRPC code as upstream names it in metrics and messages: Go's
// codes.Code.String() ("OK", "DeadlineExceeded", ..., "Code(17)"), and
// "unknown-non-grpc" for kNonGrpcCode.
std::string CodeName(int code);

// Whether a failed Publish/Unpublish certainly did not happen and is not in
// progress (upstream's isFinalError). Canceled, DeadlineExceeded,
// Unavailable, ResourceExhausted and Aborted mean the driver may still be
// working on it; every other code, and any non-gRPC error, is final.
bool IsFinalError(const base::Error& error);

}  // namespace csi
