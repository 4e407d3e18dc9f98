#include "cmd/csi-attacher/run.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>

#include "base/flags.h"
#include "base/log.h"
#include "base/log_options.h"
#include "cmd/csi-attacher/feature_gates.h"
#include "cmd/csi-attacher/options.h"
#include "cmd/csi-attacher/run_controller.h"
#include "cmd/csi-attacher/shutdown_signals.h"
#include "csi/capabilities.h"
#include "csi/connection.h"
#include "csi/identity_client.h"
#include "kube/client.h"
#include "kube/config.h"

namespace csiattacher {
namespace {

constexpr std::string_view kVersion = CSI_ATTACHER_VERSION;
// Deadline of the short identity calls (GetPluginInfo, capabilities).
constexpr std::chrono::seconds kCsiTimeout(1);
constexpr int kExitFailure = 1;

int Fail(std::string_view message) {
  LOG_ERROR(message);
  return kExitFailure;
}

int Fail(std::string_view message, const base::Error& error) {
  LOG_ERROR(message).With("err", error.message);
  return kExitFailure;
}

// A stop during startup is a graceful end, not a failure.
int Stopped(std::string_view step) {
  LOG_INFO("Shutdown requested during startup, exiting").With("step", step);
  return 0;
}

// Everything after the checks that need no connection: the API client, the
// driver, then the controller until `stop`.
int Serve(const Options& options, const FeatureGates& gates, const RunEnvironment& env) {
  std::stop_token stop = env.stop.get_token();

  base::Result<kube::RestConfig> config = kube::LoadRestConfig(options.kubeconfig);
  if (!config.ok()) return Fail("Failed to build a Kubernetes config", config.error());
  config->user_agent = "csi-attacher/" + std::string(kVersion);

  if (base::Status s = CheckWorkerThreads(options); !s.ok()) return Fail(s.error().message);
  // Upstream's clientset checks the limits when it is built, just after.
  base::Result<KubeApiRateLimits> limits = RateLimitsFor(options);
  if (!limits.ok()) return Fail("Failed to create a Clientset", limits.error());
  config->qps = limits->qps;
  config->burst = limits->burst;
  // Upstream finds bad lease durations only when it starts electing, after
  // connecting to the driver; a configuration error is better reported first.
  if (base::Status s = CheckLeaderElection(options); !s.ok()) {
    return Fail("Failed to initialize leader election", s.error());
  }

  base::Result<std::unique_ptr<kube::Client>> client = kube::Client::Create(std::move(*config));
  if (!client.ok()) return Fail("Failed to create a Clientset", client.error());

  csi::ConnectOptions connect_options;
  connect_options.max_grpc_log_length = static_cast<int>(options.max_grpc_log_length);
  connect_options.termination_log_path = env.termination_log_path;
  if (env.on_connection_loss) connect_options.on_connection_loss = env.on_connection_loss;
  base::Result<std::unique_ptr<csi::Connection>> connection =
      csi::Connect(options.csi_address, connect_options);
  if (!connection.ok()) {
    LOG_ERROR("Failed to connect to the CSI driver")
        .With("err", connection.error().message)
        .With("csiAddress", options.csi_address);
    return kExitFailure;
  }
  if (stop.stop_requested()) return Stopped("connect");

  csi::IdentityClient identity(**connection);
  if (base::Status s = identity.ProbeForever(options.timeout, stop); !s.ok()) {
    if (stop.stop_requested()) return Stopped("probe");
    return Fail("Failed to probe the CSI driver", s.error());
  }
  base::Result<std::string> driver_name = identity.GetDriverName(kCsiTimeout);
  if (!driver_name.ok()) return Fail("Failed to get the CSI driver name", driver_name.error());
  LOG_V(2, "CSI driver name").With("driver", *driver_name);

  // Upstream starts its HTTP server at this point.
  if (std::string address = HttpAddress(options); !address.empty()) {
    LOG_WARNING("The HTTP endpoint is not implemented yet: no metrics or health checks are served")
        .With("address", address)
        .With("metricsPath", options.metrics_path);
  }

  base::Result<csi::Capabilities> caps = csi::GetCapabilities(**connection, kCsiTimeout);
  if (!caps.ok()) return Fail("Failed to get the CSI driver's capabilities", caps.error());

  if (options.leader_election) {
    LOG_WARNING("Leader election is not implemented yet: running as if this were the leader")
        .With("namespace", options.leader_election_namespace);
  }
  if (stop.stop_requested()) return Stopped("capabilities");

  ControllerFeatures features;
  features.error_code_enabled = gates.Enabled(kMutableCSINodeAllocatableCount);
  RunController(options, DriverInfo{*driver_name, *caps}, features, **client, **connection, stop);
  return 0;
}

}  // namespace

int Run(const std::vector<std::string>& args, RunEnvironment env) {
  const std::string program = args.empty() ? "csi-attacher" : args[0];
  Options options;
  base::FlagSet flags(program, env.err);
  RegisterFlags(flags, options);
  std::vector<std::string> flag_args;
  if (!args.empty()) flag_args.assign(args.begin() + 1, args.end());
  if (base::Status s = flags.Parse(flag_args); !s.ok()) return s.error().code;

  if (base::Status s = base::ValidateAndApplyLoggingOptions(options.logging); !s.ok()) {
    return Fail("LoggingConfiguration is invalid", s.error());
  }

  FeatureGates gates;
  if (base::Status s = gates.SetFromMap(options.feature_gates); !s.ok()) {
    LOG_ERROR("failed to store flag gates")
        .With("err", s.error().message)
        .With("featureGates", FormatFeatureGates(options.feature_gates));
    return kExitFailure;
  }

  if (options.show_version) {
    *env.out << program << " " << kVersion << std::endl;
    return 0;
  }
  LOG_INFO("Version").With("version", kVersion);

  if (base::Status s = CheckHttpEndpoint(options); !s.ok()) return Fail(s.error().message);

  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(options, gates, env);
}

int Run(int argc, const char* const* argv) {
  RunEnvironment env;
  // Test hook only: integration tests cannot write /dev/termination-log.
  if (const char* path = std::getenv("CSI_ATTACHER_TERMINATION_LOG"); path && *path) {
    env.termination_log_path = path;
  }
  return Run(std::vector<std::string>(argv, argv + argc), std::move(env));
}

}  // namespace csiattacher
