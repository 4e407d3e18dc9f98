// RegistrationService: kubelet's pluginregistration.Registration v1 as the
// registrar serves it (docs/node-sidecars.md §3.3). GetInfo always answers
// {type "CSIPlugin", the driver's name, --kubelet-registration-path verbatim,
// versions ["1.0.0"]} and has no side effects. NotifyRegistrationStatus
// answers an empty response to plugin_registered=true; false means kubelet
// refused the driver: it logs kubelet's error and calls `on_refused` inside
// the handler (upstream: os.Exit(1), so kubelet's call fails and the
// container restart is the retry). `registered` turns true on the first
// plugin_registered=true.
//
// Thread-safety: gRPC runs the handlers on its own threads; all state is
// immutable or atomic.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "registrar/proto/pluginregistration.grpc.pb.h"

namespace registrar {

inline constexpr const char* kCsiPluginType = "CSIPlugin";
inline constexpr const char* kSupportedVersion = "1.0.0";

class RegistrationService final : public pluginregistration::Registration::Service {
 public:
  // `on_refused` defaults to base::FlushAndExit(1).
  RegistrationService(std::string driver_name, std::string endpoint,
                      std::function<void()> on_refused = {});

  grpc::Status GetInfo(grpc::ServerContext* context, const pluginregistration::InfoRequest* request,
                       pluginregistration::PluginInfo* response) override;
  grpc::Status NotifyRegistrationStatus(
      grpc::ServerContext* context, const pluginregistration::RegistrationStatus* request,
      pluginregistration::RegistrationStatusResponse* response) override;

  bool registered() const { return registered_; }

 private:
  const std::string driver_name_;
  const std::string endpoint_;
  const std::function<void()> on_refused_;
  std::atomic<bool> registered_ = false;
};

}  // namespace registrar
