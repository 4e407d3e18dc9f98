// The attacher's command line (docs/attacher.md §1.1): every flag upstream's
// external-attacher accepts, with the same name, type and default, so an
// existing Deployment's args work unchanged: the sidecar flags every CSI
// sidecar shares (component/standard_flags.h) plus the attacher's own.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "attacher/run_controller.h"
#include "base/flags.h"
#include "base/result.h"
#include "component/feature_gates.h"
#include "component/standard_flags.h"

namespace csiattacher {

struct Options : component::SidecarOptions, component::RetryIntervalOptions {
  std::chrono::nanoseconds resync = std::chrono::minutes(10);
  std::chrono::nanoseconds timeout = std::chrono::seconds(15);
  uint64_t worker_threads = 10;
  int64_t max_entries = 0;
  std::string default_fstype;
  std::chrono::nanoseconds reconcile_sync = std::chrono::minutes(1);
  int64_t max_grpc_log_length = -1;
};

// Registers every flag on `flags`, writing into `options` (which must outlive
// `flags`). The --feature-gates help lists the attacher's gates.
void RegisterFlags(base::FlagSet& flags, Options& options);
// The attacher's own flags alone (csi-sidecars registers them prefixed):
// all but the shared sidecar flags and --max-grpc-log-length.
void RegisterOwnFlags(base::FlagSet& flags, Options& options);

// --worker-threads must be positive (upstream's message, naming the flag as
// the command line calls it: csi-sidecars' is --attacher-worker-threads; exit 1).
base::Status CheckWorkerThreads(const Options& options,
                                std::string_view flag_name = "worker-threads");

// What the flags and gates decide for the controller.
attacher::RunControllerOptions ControllerOptionsFrom(const Options& options,
                                                     const component::FeatureGates& gates);

}  // namespace csiattacher
