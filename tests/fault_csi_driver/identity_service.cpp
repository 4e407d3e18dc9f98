#include "tests/fault_csi_driver/identity_service.h"

namespace faultdriver {

inline constexpr char kVendorVersion[] = "0.1.0";

grpc::Status IdentityService::GetPluginInfo(grpc::ServerContext* context,
                                            const csi::v1::GetPluginInfoRequest* request,
                                            csi::v1::GetPluginInfoResponse* response) {
  CallScope call(driver_, context, "GetPluginInfo");
  if (auto early = call.Begin()) return call.Finish(*early);
  response->set_name(driver_.options->driver_name);
  response->set_vendor_version(kVendorVersion);
  return call.Finish(grpc::Status::OK);
}

grpc::Status IdentityService::GetPluginCapabilities(
    grpc::ServerContext* context, const csi::v1::GetPluginCapabilitiesRequest* request,
    csi::v1::GetPluginCapabilitiesResponse* response) {
  CallScope call(driver_, context, "GetPluginCapabilities");
  if (auto early = call.Begin()) return call.Finish(*early);
  if (driver_.options->controller_service) {
    response->add_capabilities()->mutable_service()->set_type(
        csi::v1::PluginCapability::Service::CONTROLLER_SERVICE);
  }
  if (driver_.options->accessible_topology) {
    response->add_capabilities()->mutable_service()->set_type(
        csi::v1::PluginCapability::Service::VOLUME_ACCESSIBILITY_CONSTRAINTS);
  }
  if (driver_.options->group_controller_service) {
    response->add_capabilities()->mutable_service()->set_type(
        csi::v1::PluginCapability::Service::GROUP_CONTROLLER_SERVICE);
  }
  return call.Finish(grpc::Status::OK);
}

grpc::Status IdentityService::Probe(grpc::ServerContext* context,
                                    const csi::v1::ProbeRequest* request,
                                    csi::v1::ProbeResponse* response) {
  CallScope call(driver_, context, "Probe");
  if (auto early = call.Begin()) return call.Finish(*early);
  bool ready = true;
  if (call.fault() && call.fault()->ready) {
    ready = *call.fault()->ready;
    call.MarkInjected();
  }
  response->mutable_ready()->set_value(ready);
  call.response()["ready"] = ready;
  return call.Finish(grpc::Status::OK);
}

}  // namespace faultdriver
