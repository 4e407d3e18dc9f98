// Calls on the driver's Node service that a controller-side sidecar makes:
// today NodeGetInfo, which the provisioner's node deployment asks once at
// start-up for the node's ID and topology (docs/provisioner.md §2.4 step 7).
#pragma once

#include <chrono>
#include <memory>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/proto/csi.grpc.pb.h"

namespace csi {

class NodeClient {
 public:
  explicit NodeClient(Connection& connection);

  // One NodeGetInfo call within `timeout`; a driver's failure keeps its
  // gRPC code (csi/errors.h).
  base::Result<v1::NodeGetInfoResponse> NodeGetInfo(std::chrono::nanoseconds timeout);

 private:
  Connection& connection_;
  std::unique_ptr<v1::Node::Stub> stub_;
};

}  // namespace csi
