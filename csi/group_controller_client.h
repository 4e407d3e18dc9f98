// Calls on the driver's GroupController service (plugins advertising
// GROUP_CONTROLLER_SERVICE). Each call runs under its own deadline; failures
// are gRPC errors as described in csi/errors.h.
#pragma once

#include <chrono>
#include <memory>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/proto/csi.grpc.pb.h"

namespace csi {

class GroupControllerClient {
 public:
  explicit GroupControllerClient(Connection& connection);

  base::Result<v1::GroupControllerGetCapabilitiesResponse> GroupControllerGetCapabilities(
      std::chrono::nanoseconds timeout);

 private:
  Connection& connection_;
  std::unique_ptr<v1::GroupController::Stub> stub_;
};

}  // namespace csi
