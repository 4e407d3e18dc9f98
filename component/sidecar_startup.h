// RunSidecar: csi-lib-utils' start-up sequence of a CSI sidecar, then the
// sidecar itself: connect to --csi-address (losing the connection later
// writes the termination message and runs the environment's handler, by
// default exit 1), probe until the driver is ready, ask its name
// (GetPluginInfo), read its capabilities, and hand all of it to `serve`.
// Each failure is logged and ends start-up with exit 1; a stop requested
// during start-up ends it with 0.
//
// Upstream's sidecars order the steps differently: the attacher probes
// before asking the name (docs/attacher.md §1.4); the snapshotter asks the
// name, starts its HTTP server, and only then probes (docs/snapshots.md
// §3.2), which `name_before_probe` selects. Each also reads the capabilities
// it needs and words its failures its own way.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "base/result.h"
#include "component/run_environment.h"
#include "csi/capabilities.h"
#include "csi/connection.h"

namespace component {

// The driver a sidecar serves, once started; lives while `serve` runs.
struct CsiDriver {
  csi::Connection& connection;
  std::string name;
  csi::Capabilities capabilities;
};

// The start-up steps that can fail, for the failure log.
enum class StartupStep { kConnect, kProbe, kDriverName, kCapabilities };

// How start-up words its log lines; an empty member keeps the attacher's
// words: errors "Failed to connect to the CSI driver" (with err and
// csiAddress), "Failed to probe the CSI driver", "Failed to get the CSI
// driver name", "Failed to get the CSI driver's capabilities" (each with
// err), and V(2) "CSI driver name" with driver.
struct StartupWording {
  std::function<void(StartupStep step, const base::Error& error)> failure;
  std::function<void(const std::string& driver_name)> driver_named;
};

struct SidecarStartup {
  std::string csi_address;
  // Records every call (csi_sidecar_operations_seconds); may be empty.
  csi::MetricsHook metrics;
  int max_grpc_log_length = -1;
  // Deadline of each readiness probe.
  std::chrono::nanoseconds probe_timeout;
  // Deadline of GetPluginInfo and of reading the capabilities.
  std::chrono::nanoseconds identity_timeout = std::chrono::seconds(1);
  // Ask the name (and run on_driver_named) before probing instead of after.
  bool name_before_probe = false;
  // Reads the capabilities `serve` gets; empty: csi::GetCapabilities (the
  // plugin's services, then the controller's RPCs when it has that service).
  std::function<base::Result<csi::Capabilities>(csi::Connection&, std::chrono::nanoseconds)>
      read_capabilities;
  StartupWording wording;
  // Runs once the driver has named itself. An exit code ends start-up with
  // it (the hook has logged why); nullopt goes on.
  std::function<std::optional<int>(const std::string& driver_name)> on_driver_named;
};

// Returns `serve`'s exit code, or start-up's. Stops when `env.stop` does.
int RunSidecar(const SidecarStartup& startup, const RunEnvironment& env,
               const std::function<int(const CsiDriver&)>& serve);

}  // namespace component
