// How the csi layer reports failures.
//
// A failed call's gRPC status becomes a gRPC-domain base::Error
// (base::Error::Grpc) carrying the status code (1..16; OK never appears in an
// error), kept when context is added. A driver not reached within the connect
// timeout is a transport error; other failures that never got a gRPC status
// (bad address, empty driver name, a cancelled probe) are plain errors.
//
// A gRPC error's message reads like Go's status error, `rpc error: code =
// Internal desc = boom`, because the attacher copies it verbatim into
// VolumeAttachment status where users and tools already match upstream's text.
#pragma once

#include <string>

#include "base/result.h"

namespace grpc {
class Status;
}

namespace csi {

// Converts a failed call's status (not OK) into an Error. A client-side
// deadline reads "context deadline exceeded", as it does in Go.
base::Error ErrorFromStatus(const grpc::Status& status);

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
