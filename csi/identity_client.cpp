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
      if (ready.error().code != grpc::StatusCode::DEADLINE_EXCEEDED) {
        return ready.error().Wrap("CSI driver probe failed");
      }
      LOG_INFO("CSI driver probe timed out");
    } else if (*ready) {
      return base::Status::Ok();
    } else {
      LOG_INFO("CSI driver is not ready");
    }
    if (!clock.SleepUntil(attempt_start + kProbeInterval, stop)) {
      return base::Error("CSI driver probe canceled", kNonGrpcCode);
    }
  }
}

base::Result<bool> IdentityClient::Probe(std::chrono::nanoseconds timeout) {
  v1::ProbeRequest request;
  v1::ProbeResponse response;
  auto status = connection_.Invoke(
      kProbeMethod, request, response, {.timeout = timeout},
      [&](grpc::ClientContext* context) { return stub_->Probe(context, request, &response); });
  if (!status.ok()) return status.error();
  // The spec: "If not present, the caller SHALL assume that the plugin is in
  // a ready state".
  return !response.has_ready() || response.ready().value();
}

base::Result<std::string> IdentityClient::GetDriverName(std::chrono::nanoseconds timeout) {
  v1::GetPluginInfoRequest request;
  v1::GetPluginInfoResponse response;
  auto status = connection_.Invoke(kGetPluginInfoMethod, request, response, {.timeout = timeout},
                                   [&](grpc::ClientContext* context) {
                                     return stub_->GetPluginInfo(context, request, &response);
                                   });
  if (!status.ok()) return status.error();
  if (response.name().empty()) return base::Error("driver name is empty", kNonGrpcCode);
  return response.name();
}

base::Result<v1::GetPluginCapabilitiesResponse> IdentityClient::GetPluginCapabilities(
    std::chrono::nanoseconds timeout) {
  v1::GetPluginCapabilitiesRequest request;
  v1::GetPluginCapabilitiesResponse response;
  auto status =
      connection_.Invoke(kGetPluginCapabilitiesMethod, request, response, {.timeout = timeout},
                         [&](grpc::ClientContext* context) {
                           return stub_->GetPluginCapabilities(context, request, &response);
                         });
  if (!status.ok()) return status.error();
  return response;
}

}  // namespace csi
