// The CSI Identity service of the fault driver: GetPluginInfo (--name,
// vendor version 0.1.0), GetPluginCapabilities (CONTROLLER_SERVICE unless
// --no-controller-service, GROUP_CONTROLLER_SERVICE unless
// --no-group-snapshots) and Probe (ready unless a fault says otherwise).
#pragma once

#include "csi/proto/csi.grpc.pb.h"
#include "tests/fault_csi_driver/call_scope.h"

namespace faultdriver {

class IdentityService final : public csi::v1::Identity::Service {
 public:
  explicit IdentityService(const DriverContext& driver) : driver_(driver) {}

  grpc::Status GetPluginInfo(grpc::ServerContext* context,
                             const csi::v1::GetPluginInfoRequest* request,
                             csi::v1::GetPluginInfoResponse* response) override;
  grpc::Status GetPluginCapabilities(grpc::ServerContext* context,
                                     const csi::v1::GetPluginCapabilitiesRequest* request,
                                     csi::v1::GetPluginCapabilitiesResponse* response) override;
  grpc::Status Probe(grpc::ServerContext* context, const csi::v1::ProbeRequest* request,
                     csi::v1::ProbeResponse* response) override;

 private:
  const DriverContext& driver_;
};

}  // namespace faultdriver
