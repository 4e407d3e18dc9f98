#include "registrar/run_registrar.h"

#include <condition_variable>
#include <memory>
#include <mutex>

#include "base/log.h"
#include "component/exit_codes.h"
#include "csi_lite/connection.h"
#include "csi_lite/identity_client.h"
#include "metrics/http_server.h"
#include "registrar/registrar_health.h"
#include "registrar/registration_server.h"
#include "registrar/registration_service.h"
#include "registrar/socket_file.h"

namespace registrar {
namespace {

constexpr auto kNameRetryInterval = std::chrono::seconds(1);

bool SleepUnlessStopped(std::stop_token stop, std::chrono::nanoseconds d) {
  std::mutex mu;
  std::condition_variable_any wake;
  std::unique_lock lock(mu);
  wake.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

// GetPluginInfo until it answers or `window` has passed since the first try;
// the last error otherwise. An empty name is final at once.
base::Result<std::string> DriverName(csi_lite::Connection& connection,
                                     const RegistrarOptions& options, std::stop_token stop) {
  csi_lite::IdentityClient identity(connection);
  const auto give_up = std::chrono::steady_clock::now() + options.driver_name_window;
  while (true) {
    const auto attempt = std::chrono::steady_clock::now();
    base::Result<std::string> name = identity.GetDriverName(options.timeout);
    // Only a failed call is worth another try; an empty name stays empty.
    if (name.ok() || !name.error().IsGrpc()) return name;
    const auto next = attempt + kNameRetryInterval;
    if (next >= give_up) return name;
    LOG_INFO("GetPluginInfo failed, retrying").With("err", name.error().message);
    if (!SleepUnlessStopped(stop, next - std::chrono::steady_clock::now())) return name;
  }
}

}  // namespace

int RunRegistrar(const RegistrarOptions& options, std::stop_token stop) {
  LOG_V(1, "Attempting to open a gRPC connection").With("csiAddress", options.csi_address);
  csi_lite::ConnectOptions connect;
  connect.stop = stop;
  // Held for start-up only: a lost driver is not fatal, /healthz reports it (§9.1).
  auto connection = csi_lite::Connection::Connect(options.csi_address, std::move(connect));
  if (!connection.ok()) {
    if (stop.stop_requested()) return component::StoppedDuringStartup("connecting to the driver");
    return component::Fail("Error connecting to CSI driver", connection.error());
  }
  LOG_V(1, "Calling CSI driver to discover driver name");
  base::Result<std::string> name = DriverName(**connection, options, stop);
  (*connection).reset();
  if (!name.ok()) {
    if (stop.stop_requested()) return component::StoppedDuringStartup("asking the driver's name");
    return component::Fail("Error retreiving CSI driver name", name.error());
  }
  LOG_V(2, "CSI driver name").With("csiDriverName", *name);

  RegistrationService service(*name, options.kubelet_registration_path, options.on_refused);
  const std::string socket_path = RegistrationSocketPath(options.plugin_registration_path, *name);
  auto server = RegistrationServer::Start(socket_path, service);
  if (!server.ok()) {
    return component::Fail("Failed to listen on socket", server.error());
  }

  RegistrarHealth health(socket_path, *name, options.timeout, options.csi_address);
  std::unique_ptr<metrics::HttpServer> http;
  if (options.http_address.empty()) {
    LOG_INFO("Skipping HTTP server");
  } else {
    LOG_INFO("Starting HTTP server").With("endpoint", options.http_address);
    auto started = metrics::HttpServer::Start(options.http_address);
    if (!started.ok()) return component::Fail("Failed to start HTTP server", started.error());
    http = std::move(started).value();
    http->Handle("/healthz", [&health] { return health.Check(); });
  }

  {
    std::mutex mu;
    std::condition_variable_any wake;
    std::unique_lock lock(mu);
    wake.wait(lock, stop, [] { return false; });
  }
  http.reset();
  // Removing the socket makes kubelet deregister the driver (§3.5).
  LOG_INFO("Stopping: removing the registration socket; kubelet deregisters the driver")
      .With("socketPath", socket_path);
  if (base::Status s = (*server)->Stop(); !s.ok()) {
    return component::Fail("Failed to remove socket with error", s.error());
  }
  return component::kExitSuccess;
}

}  // namespace registrar
