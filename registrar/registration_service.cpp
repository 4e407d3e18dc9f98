#include "registrar/registration_service.h"

#include "base/log.h"
#include "csi/status_error.h"

namespace registrar {
namespace {

// A request that does not decode, as gRPC's unmarshalling fails it.
base::Error Unparsable(const base::Error& error) {
  return csi::StatusError(csi::codes::kInternal,
                          "grpc: error unmarshalling request: " + error.message);
}

}  // namespace

RegistrationService::RegistrationService(std::string driver_name, std::string endpoint,
                                         std::function<void()> on_refused)
    : driver_name_(std::move(driver_name)),
      endpoint_(std::move(endpoint)),
      on_refused_(on_refused ? std::move(on_refused) : [] { base::FlushAndExit(1); }) {}

PluginInfo RegistrationService::GetInfo() const {
  LOG_V(4, "Received GetInfo call");
  return PluginInfo{kCsiPluginType, driver_name_, endpoint_, {kSupportedVersion}};
}

base::Status RegistrationService::NotifyRegistrationStatus(const RegistrationStatus& status) {
  LOG_INFO("Received NotifyRegistrationStatus call")
      .With("pluginRegistered", status.plugin_registered ? "true" : "false")
      .With("error", status.error);
  if (!status.plugin_registered) {
    LOG_ERROR("Registration process failed with error, restarting registration container")
        .With("err", status.error);
    on_refused_();
    return csi::StatusError(csi::codes::kUnavailable, "registration refused");
  }
  registered_ = true;
  return base::Status::Ok();
}

csi_lite::UnaryMethods RegistrationService::Methods() {
  csi_lite::UnaryMethods methods;
  methods[kGetInfoMethod] = [this](std::string_view request) -> base::Result<std::string> {
    if (base::Status s = DecodeEmpty(request); !s.ok()) return Unparsable(s.error());
    return Encode(GetInfo());
  };
  methods[kNotifyMethod] = [this](std::string_view request) -> base::Result<std::string> {
    base::Result<RegistrationStatus> status = DecodeRegistrationStatus(request);
    if (!status.ok()) return Unparsable(status.error());
    if (base::Status s = NotifyRegistrationStatus(*status); !s.ok()) return s.error();
    return std::string();  // RegistrationStatusResponse has no fields
  };
  return methods;
}

}  // namespace registrar
