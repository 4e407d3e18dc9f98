#include "csi/errors.h"

#include <grpcpp/support/status.h>

namespace csi {

base::Error ErrorFromStatus(const grpc::Status& status) {
  return StatusError(status.error_code(), status.error_message());
}

}  // namespace csi
