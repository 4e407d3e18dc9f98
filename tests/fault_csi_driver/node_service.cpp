#include "tests/fault_csi_driver/node_service.h"

namespace faultdriver {

grpc::Status NodeService::NodeGetInfo(grpc::ServerContext* context,
                                      const csi::v1::NodeGetInfoRequest* request,
                                      csi::v1::NodeGetInfoResponse* response) {
  CallScope call(driver_, context, "NodeGetInfo");
  if (auto early = call.Begin()) return call.Finish(*early);
  response->set_node_id(driver_.options->node_info_id);
  call.response()["node_id"] = driver_.options->node_info_id;
  if (!driver_.options->node_topology.empty()) {
    auto* segments = response->mutable_accessible_topology()->mutable_segments();
    for (const auto& [key, value] : driver_.options->node_topology) (*segments)[key] = value;
    call.response()["accessible_topology"] = driver_.options->node_topology;
  }
  return call.Finish(grpc::Status::OK);
}

}  // namespace faultdriver
