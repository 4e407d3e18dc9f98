#include "component/sidecar_startup.h"

#include <memory>

#include "base/log.h"
#include "component/exit_codes.h"
#include "csi/identity_client.h"

namespace component {

int RunSidecar(const SidecarStartup& startup, const RunEnvironment& env,
               const std::function<int(const CsiDriver&)>& serve) {
  const std::stop_token stop = env.stop.get_token();
  csi::ConnectOptions connect;
  connect.metrics = startup.metrics;
  connect.max_grpc_log_length = startup.max_grpc_log_length;
  connect.termination_log_path = env.termination_log_path;
  if (env.on_connection_loss) connect.on_connection_loss = env.on_connection_loss;
  base::Result<std::unique_ptr<csi::Connection>> connection =
      csi::Connect(startup.csi_address, std::move(connect));
  if (!connection.ok()) {
    LOG_ERROR("Failed to connect to the CSI driver")
        .With("err", connection.error().message)
        .With("csiAddress", startup.csi_address);
    return kExitFailure;
  }
  if (stop.stop_requested()) return StoppedDuringStartup("connect");

  csi::IdentityClient identity(**connection);
  if (base::Status s = identity.ProbeForever(startup.probe_timeout, stop); !s.ok()) {
    if (stop.stop_requested()) return StoppedDuringStartup("probe");
    return Fail("Failed to probe the CSI driver", s.error());
  }
  base::Result<std::string> name = identity.GetDriverName(startup.identity_timeout);
  if (!name.ok()) return Fail("Failed to get the CSI driver name", name.error());
  LOG_V(2, "CSI driver name").With("driver", *name);
  if (startup.on_driver_named && !startup.on_driver_named(*name)) return kExitFailure;

  base::Result<csi::Capabilities> capabilities =
      csi::GetCapabilities(**connection, startup.identity_timeout);
  if (!capabilities.ok()) {
    return Fail("Failed to get the CSI driver's capabilities", capabilities.error());
  }
  if (stop.stop_requested()) return StoppedDuringStartup("capabilities");

  return serve(CsiDriver{**connection, std::move(*name), std::move(*capabilities)});
}

}  // namespace component
