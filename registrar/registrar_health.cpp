#include "registrar/registrar_health.h"

#include "base/log.h"
#include "csi_lite/connection.h"
#include "registrar/registration_messages.h"
#include "registrar/registration_service.h"
#include "registrar/socket_file.h"

namespace registrar {
namespace {

// A connection to `address` within `timeout`, redialled while the socket refuses.
base::Result<std::unique_ptr<csi_lite::Connection>> Dial(const std::string& address,
                                                         std::chrono::nanoseconds timeout) {
  csi_lite::ConnectOptions options;
  options.connect_timeout = timeout;
  return csi_lite::Connection::Connect(address, std::move(options));
}

}  // namespace

RegistrarHealth::RegistrarHealth(std::string socket_path, std::string driver_name,
                                 std::chrono::nanoseconds timeout, std::string driver_address)
    : socket_path_(std::move(socket_path)),
      driver_name_(std::move(driver_name)),
      timeout_(timeout),
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
  auto connection = Dial(socket_path_, timeout_);
  if (!connection.ok()) {
    return "error connecting to node-registrar socket " + socket_path_ +
           ": context deadline exceeded";
  }
  LOG_V(2, "Calling node registrar to check if it still responds");
  PluginInfo info;
  base::Status called =
      (*connection)->Invoke(kGetInfoMethod, "", "{}", timeout_, [&info](std::string_view bytes) {
        base::Result<PluginInfo> decoded = DecodePluginInfo(bytes);
        if (!decoded.ok()) return base::Result<std::string>(decoded.error());
        info = *std::move(decoded);
        return base::Result<std::string>(LogJson(info));
      });
  if (!called.ok())
    return "error getting info from node-registrar socket: " + called.error().message;
  if (info.name != driver_name_) return "invalid driver name " + info.name;
  return "";
}

std::string RegistrarHealth::CheckDriver() const {
  if (driver_address_.empty()) return "";
  // A dial proves the driver listens: what a held gRPC channel's state told
  // before, without holding one (a restarted driver is simply dialled anew).
  if (!Dial(driver_address_, timeout_).ok()) {
    driver_lost_ = true;
    return "lost connection to CSI driver at " + driver_address_;
  }
  if (driver_lost_.exchange(false)) {
    LOG_INFO("Connection to CSI driver re-established").With("address", driver_address_);
  }
  return "";
}

}  // namespace registrar
