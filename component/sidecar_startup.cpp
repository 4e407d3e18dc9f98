#include "component/sidecar_startup.h"

#include <memory>

#include "base/log.h"
#include "component/exit_codes.h"
#include "csi/identity_client.h"

namespace component {
namespace {

void LogFailureAsTheAttacher(const SidecarStartup& startup, StartupStep step,
                             const base::Error& error) {
  switch (step) {
    case StartupStep::kConnect:
      LOG_ERROR("Failed to connect to the CSI driver")
          .With("err", error.message)
          .With("csiAddress", startup.csi_address);
      return;
    case StartupStep::kProbe:
      Fail("Failed to probe the CSI driver", error);
      return;
    case StartupStep::kDriverName:
      Fail("Failed to get the CSI driver name", error);
      return;
    case StartupStep::kCapabilities:
      Fail("Failed to get the CSI driver's capabilities", error);
      return;
  }
}

// The driver's name, once it has given it and on_driver_named let start-up go on.
struct Named {
  std::string name;
  std::optional<int> exit;
};

}  // namespace

int RunSidecar(const SidecarStartup& startup, const RunEnvironment& env,
               const std::function<int(const CsiDriver&)>& serve) {
  const std::stop_token stop = env.stop.get_token();
  auto failed = [&startup](StartupStep step, const base::Error& error) {
    if (startup.wording.failure) {
      startup.wording.failure(step, error);
    } else {
      LogFailureAsTheAttacher(startup, step, error);
    }
    return kExitFailure;
  };

  csi::ConnectOptions connect;
  connect.metrics = startup.metrics;
  connect.max_grpc_log_length = startup.max_grpc_log_length;
  connect.termination_log_path = env.termination_log_path;
  if (env.on_connection_loss) connect.on_connection_loss = env.on_connection_loss;
  connect.stop = stop;
  base::Result<std::unique_ptr<csi::Connection>> connection =
      csi::Connect(startup.csi_address, std::move(connect));
  if (stop.stop_requested()) return StoppedDuringStartup("connect");
  if (!connection.ok()) return failed(StartupStep::kConnect, connection.error());

  csi::IdentityClient identity(**connection);
  auto probe = [&]() -> std::optional<int> {
    if (base::Status s = identity.ProbeForever(startup.probe_timeout, stop); !s.ok()) {
      if (stop.stop_requested()) return StoppedDuringStartup("probe");
      return failed(StartupStep::kProbe, s.error());
    }
    return std::nullopt;
  };
  auto name = [&]() -> Named {
    base::Result<std::string> name = identity.GetDriverName(startup.identity_timeout);
    if (!name.ok()) return {"", failed(StartupStep::kDriverName, name.error())};
    if (startup.wording.driver_named) {
      startup.wording.driver_named(*name);
    } else {
      LOG_V(2, "CSI driver name").With("driver", *name);
    }
    if (startup.on_driver_named) return {*name, startup.on_driver_named(*name)};
    return {*name, std::nullopt};
  };

  Named named;
  if (startup.name_before_probe) {
    named = name();
    if (named.exit) return *named.exit;
    if (std::optional<int> exit = probe()) return *exit;
  } else {
    if (std::optional<int> exit = probe()) return *exit;
    named = name();
    if (named.exit) return *named.exit;
  }

  base::Result<csi::Capabilities> capabilities =
      startup.read_capabilities ? startup.read_capabilities(**connection, startup.identity_timeout)
                                : csi::GetCapabilities(**connection, startup.identity_timeout);
  if (!capabilities.ok()) return failed(StartupStep::kCapabilities, capabilities.error());
  if (stop.stop_requested()) return StoppedDuringStartup("capabilities");

  return serve(CsiDriver{**connection, std::move(named.name), std::move(*capabilities)});
}

}  // namespace component
