#include "registrar/registrar_health.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "base/log.h"
#include "csi/errors.h"
#include "registrar/proto/pluginregistration.grpc.pb.h"
#include "registrar/socket_file.h"

namespace registrar {
namespace {

std::chrono::system_clock::time_point After(std::chrono::nanoseconds d) {
  return std::chrono::system_clock::now() +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
}

constexpr auto kStatePollWindow = std::chrono::milliseconds(50);

}  // namespace

RegistrarHealth::RegistrarHealth(std::string socket_path, std::string driver_name,
                                 std::chrono::nanoseconds timeout,
                                 std::shared_ptr<grpc::Channel> driver, std::string driver_address)
    : socket_path_(std::move(socket_path)),
      driver_name_(std::move(driver_name)),
      timeout_(timeout),
      driver_(std::move(driver)),
      driver_address_(std::move(driver_address)) {}

metrics::HttpResponse RegistrarHealth::Check() const {
  base::Result<bool> exists = SocketExists(socket_path_);
  if (!exists.ok()) {
    LOG_ERROR("Health check failed").With("err", exists.error().message);
    return {500, exists.error().message};
  }
  if (!*exists) {
    LOG_ERROR("Health check failed, registration socket does not exist");
    return {404, kSocketMissingBody};
  }
  std::string failure = CheckRegistrationSocket();
  if (failure.empty()) failure = CheckDriver();
  if (!failure.empty()) {
    LOG_ERROR("Health check failed").With("err", failure);
    return {500, failure};
  }
  LOG_V(5, "Health check succeeded");
  return {200, "ok"};
}

std::string RegistrarHealth::CheckRegistrationSocket() const {
  LOG_V(2, "Attempting to open a gRPC connection").With("socketfile", socket_path_);
  auto channel = grpc::CreateChannel("unix:" + socket_path_, grpc::InsecureChannelCredentials());
  if (!channel->WaitForConnected(After(timeout_))) {
    return "error connecting to node-registrar socket " + socket_path_ +
           ": context deadline exceeded";
  }
  LOG_V(2, "Calling node registrar to check if it still responds");
  auto stub = pluginregistration::Registration::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(After(timeout_));
  pluginregistration::PluginInfo info;
  grpc::Status status = stub->GetInfo(&context, {}, &info);
  if (!status.ok()) {
    return "error getting info from node-registrar socket: " + csi::ErrorFromStatus(status).message;
  }
  if (info.name() != driver_name_) return "invalid driver name " + info.name();
  return "";
}

std::string RegistrarHealth::CheckDriver() const {
  if (!driver_) return "";
  // Nobody polls an idle channel's socket, so its state may still say READY
  // for a driver that is gone: a short wait for a change polls it.
  if (driver_->GetState(/*try_to_connect=*/true) == GRPC_CHANNEL_READY &&
      !driver_->WaitForStateChange(GRPC_CHANNEL_READY, After(kStatePollWindow))) {
    return "";
  }
  // gRPC redials a restarted driver on its own; give it --timeout to come back.
  if (driver_->WaitForConnected(After(timeout_))) {
    LOG_INFO("Connection to CSI driver re-established").With("address", driver_address_);
    return "";
  }
  return "lost connection to CSI driver at " + driver_address_;
}

}  // namespace registrar
