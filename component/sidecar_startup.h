// RunSidecar: csi-lib-utils' start-up sequence of a CSI sidecar, then the
// sidecar itself: connect to --csi-address (losing the connection later
// writes the termination message and runs the environment's handler, by
// default exit 1), probe until the driver is ready, ask its name
// (GetPluginInfo), read its capabilities, and hand all of it to `serve`.
// Each failure is logged and ends start-up with exit 1; a stop requested
// during start-up ends it with 0.
#pragma once

#include <chrono>
#include <functional>
#include <string>

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

struct SidecarStartup {
  std::string csi_address;
  // Records every call (csi_sidecar_operations_seconds); may be empty.
  csi::MetricsHook metrics;
  int max_grpc_log_length = -1;
  // Deadline of each readiness probe.
  std::chrono::nanoseconds probe_timeout;
  // Deadline of GetPluginInfo and of reading the capabilities.
  std::chrono::nanoseconds identity_timeout = std::chrono::seconds(1);
  // Runs once the driver has named itself, before its capabilities are read.
  // False ends start-up with exit 1; the hook has logged why.
  std::function<bool(const std::string& driver_name)> on_driver_named;
};

// Returns `serve`'s exit code, or start-up's. Stops when `env.stop` does.
int RunSidecar(const SidecarStartup& startup, const RunEnvironment& env,
               const std::function<int(const CsiDriver&)>& serve);

}  // namespace component
