#include "resizer/grpc_error_kinds.h"

#include <grpcpp/support/status.h>

#include "csi/final_error.h"

namespace resizer {

GrpcErrorKind KindOf(const base::Error& error) {
  if (!csi::IsFinalError(error)) return GrpcErrorKind::kInProgress;
  switch (error.code) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE:
    case grpc::StatusCode::NOT_FOUND:
      return GrpcErrorKind::kInfeasible;
    default:
      return GrpcErrorKind::kFinal;
  }
}

}  // namespace resizer
