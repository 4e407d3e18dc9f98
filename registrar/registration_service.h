// RegistrationService: kubelet's pluginregistration.Registration v1 as the
// registrar serves it (docs/node-sidecars.md §3.3). GetInfo always answers
// {type "CSIPlugin", the driver's name, --kubelet-registration-path verbatim,
// versions ["1.0.0"]} and has no side effects. NotifyRegistrationStatus
// answers an empty response to plugin_registered=true; false means kubelet
// refused the driver: it logs kubelet's error and calls `on_refused` inside
// the handler (upstream: os.Exit(1), so kubelet's call fails and the
// container restart is the retry). `registered` turns true on the first
// plugin_registered=true. Methods() is the service for csi_lite::GrpcServer:
// the messages decoded and encoded by hand (registrar/registration_messages.h).
//
// Thread-safety: the handlers may run on any thread; all state is immutable
// or atomic.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "base/result.h"
#include "csi_lite/grpc_server.h"
#include "registrar/registration_messages.h"

namespace registrar {

inline constexpr const char* kCsiPluginType = "CSIPlugin";
inline constexpr const char* kSupportedVersion = "1.0.0";
inline constexpr const char* kGetInfoMethod = "/pluginregistration.Registration/GetInfo";
inline constexpr const char* kNotifyMethod =
    "/pluginregistration.Registration/NotifyRegistrationStatus";

class RegistrationService {
 public:
  // `on_refused` defaults to base::FlushAndExit(1).
  RegistrationService(std::string driver_name, std::string endpoint,
                      std::function<void()> on_refused = {});

  PluginInfo GetInfo() const;
  // Ok for plugin_registered=true; kubelet's refusal is an Unavailable error.
  base::Status NotifyRegistrationStatus(const RegistrationStatus& status);

  // Both methods by their full names, for a server of this service's lifetime.
  csi_lite::UnaryMethods Methods();

  bool registered() const { return registered_; }

 private:
  const std::string driver_name_;
  const std::string endpoint_;
  const std::function<void()> on_refused_;
  std::atomic<bool> registered_ = false;
};

}  // namespace registrar
