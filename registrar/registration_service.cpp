#include "registrar/registration_service.h"

#include "base/log.h"

namespace registrar {

RegistrationService::RegistrationService(std::string driver_name, std::string endpoint,
                                         std::function<void()> on_refused)
    : driver_name_(std::move(driver_name)),
      endpoint_(std::move(endpoint)),
      on_refused_(on_refused ? std::move(on_refused) : [] { base::FlushAndExit(1); }) {}

grpc::Status RegistrationService::GetInfo(grpc::ServerContext*,
                                          const pluginregistration::InfoRequest*,
                                          pluginregistration::PluginInfo* response) {
  LOG_V(4, "Received GetInfo call");
  response->set_type(kCsiPluginType);
  response->set_name(driver_name_);
  response->set_endpoint(endpoint_);
  response->add_supported_versions(kSupportedVersion);
  return grpc::Status::OK;
}

grpc::Status RegistrationService::NotifyRegistrationStatus(
    grpc::ServerContext*, const pluginregistration::RegistrationStatus* request,
    pluginregistration::RegistrationStatusResponse*) {
  LOG_INFO("Received NotifyRegistrationStatus call")
      .With("pluginRegistered", request->plugin_registered() ? "true" : "false")
      .With("error", request->error());
  if (!request->plugin_registered()) {
    LOG_ERROR("Registration process failed with error, restarting registration container")
        .With("err", request->error());
    on_refused_();
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "registration refused");
  }
  registered_ = true;
  return grpc::Status::OK;
}

}  // namespace registrar
