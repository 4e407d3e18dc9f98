// The CSI Node service of the fault driver: NodeGetInfo only, answering
// --node-info-id and --node-topology, so a test can run one driver per
// "node" with a topology of its own (the provisioner's node deployment asks
// it once at start-up). Recorded and faultable like every call; the other
// Node RPCs answer UNIMPLEMENTED.
#pragma once

#include "csi/proto/csi.grpc.pb.h"
#include "tests/fault_csi_driver/call_scope.h"

namespace faultdriver {

class NodeService final : public csi::v1::Node::Service {
 public:
  explicit NodeService(const DriverContext& driver) : driver_(driver) {}

  grpc::Status NodeGetInfo(grpc::ServerContext* context, const csi::v1::NodeGetInfoRequest* request,
                           csi::v1::NodeGetInfoResponse* response) override;

 private:
  const DriverContext& driver_;
};

}  // namespace faultdriver
