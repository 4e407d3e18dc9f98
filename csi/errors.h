// How the csi layer reports failures.
//
// A failed call's gRPC status becomes a gRPC-domain base::Error
// (csi/status_error.h), kept when context is added. A driver not reached
// within the connect timeout is a transport error; other failures that never
// got a gRPC status (bad address, empty driver name, a cancelled probe) are
// plain errors.
#pragma once

#include "base/result.h"
#include "csi/status_error.h"

namespace grpc {
class Status;
}

namespace csi {

// Converts a failed call's status (not OK) into an Error (StatusError).
base::Error ErrorFromStatus(const grpc::Status& status);

}  // namespace csi
