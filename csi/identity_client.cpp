#include "csi/identity_client.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include "base/log.h"
#include "csi/errors.h"
#include "csi/methods.h"

namespace csi {
namespace {

constexpr auto kProbeInterval = std::chrono::seconds(1);

}  // namespace

IdentityClient::IdentityClient(Connection& connection)
    : connection_(connection), stub_(v1::Identity::NewStub(connection.channel())) {}

base::Status IdentityClient::ProbeForever(std::chrono::nanoseconds timeout, std::stop_token stop) {
  base::Clock& clock = connection_.clock();
  while (true) {
    auto attempt_start = clock.Now();
    LOG_INFO("Probing CSI driver for readiness");
    auto ready = Probe(timeout);
    if (!ready.ok()) {
      if (!IsGrpcCode(ready.error(), grpc::StatusCode::DEADLINE_EXCEEDED)) {
        return ready.error().Wrap("CSI driver probe failed");
      }
      LOG_INFO("CSI driver probe timed out");
    } else if (*ready) {
      return base::Status::Ok();
    } else {
      LOG_INFO("CSI driver is not ready");
    }
    if (!clock.SleepUntil(attempt_start + kProbeInterval, stop)) {
      return base::Error("CSI driver probe canceled");
    }
  }
}

base::Result<bool> IdentityClient::Probe(std::chrono::nanoseconds timeout) {
  auto response =
      connection_.Call(*stub_, &v1::Identity::Stub::Probe, kProbeMethod, {}, {.timeout = timeout});
  if (!response.ok()) return response.error();
  // The spec: "If not present, the caller SHALL assume that the plugin is in
  // a ready state".
  return !response->has_ready() || response->ready().value();
}

base::Result<std::string> IdentityClient::GetDriverName(std::chrono::nanoseconds timeout) {
  auto response = connection_.Call(*stub_, &v1::Identity::Stub::GetPluginInfo, kGetPluginInfoMethod,
                                   {}, {.timeout = timeout});
  if (!response.ok()) return response.error();
  if (response->name().empty()) return base::Error("driver name is empty");
  return response->name();
}

base::Result<v1::GetPluginCapabilitiesResponse> IdentityClient::GetPluginCapabilities(
    std::chrono::nanoseconds timeout) {
  return connection_.Call(*stub_, &v1::Identity::Stub::GetPluginCapabilities,
                          kGetPluginCapabilitiesMethod, {}, {.timeout = timeout});
}

}  // namespace csi
