#include "csi/final_error.h"

#include <grpcpp/support/status.h>

namespace csi {

bool IsFinalError(const base::Error& error) {
  if (!error.IsGrpc()) return false;
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
