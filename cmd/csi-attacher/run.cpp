#include "cmd/csi-attacher/run.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>

#include "base/flags.h"
#include "base/log.h"
#include "base/log_options.h"
#include "base/version.h"
#include "cmd/csi-attacher/feature_gates.h"
#include "cmd/csi-attacher/leader_election.h"
#include "cmd/csi-attacher/metrics_wiring.h"
#include "cmd/csi-attacher/options.h"
#include "cmd/csi-attacher/run_controller.h"
#include "cmd/csi-attacher/shutdown_signals.h"
#include "csi/capabilities.h"
#include "csi/connection.h"
#include "csi/identity_client.h"
#include "kube/client/client.h"
#include "kube/client/config.h"

namespace csiattacher {
namespace {

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
  config->user_agent = "csi-attacher/" + std::string(base::Version());

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

  // Leader election gets a client of its own (own QPS limiter), as upstream.
  const kube::RestConfig leader_election_config = *config;
  base::Result<std::unique_ptr<kube::Client>> client = kube::Client::Create(std::move(*config));
  if (!client.ok()) return Fail("Failed to create a Clientset", client.error());

  // Before the connection, whose metrics hook records into it.
  AttacherMetrics attacher_metrics;
  csi::ConnectOptions connect_options;
  connect_options.metrics = attacher_metrics.CsiHook();
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
  attacher_metrics.SetDriverName(*driver_name);

  // Upstream starts its HTTP server at this point.
  std::unique_ptr<metrics::HttpServer> http_server;
  if (!HttpAddress(options).empty()) {
    base::Result<std::unique_ptr<metrics::HttpServer>> server =
        StartHttpServer(options, attacher_metrics);
    if (!server.ok()) {
      LOG_ERROR("Failed to start HTTP server")
          .With("err", server.error().message)
          .With("address", HttpAddress(options))
          .With("metricsPath", options.metrics_path);
      return kExitFailure;
    }
    http_server = std::move(server).value();
  }

  base::Result<csi::Capabilities> caps = csi::GetCapabilities(**connection, kCsiTimeout);
  if (!caps.ok()) return Fail("Failed to get the CSI driver's capabilities", caps.error());

  if (stop.stop_requested()) return Stopped("capabilities");

  ControllerFeatures features;
  features.error_code_enabled = gates.Enabled(kMutableCSINodeAllocatableCount);
  auto run_controller = [&](std::stop_token controller_stop) {
    RunController(options, DriverInfo{*driver_name, *caps}, features, **client, **connection,
                  attacher_metrics, controller_stop);
  };
  if (!options.leader_election) {
    run_controller(stop);
    return 0;
  }

  LeaderElectionMetrics le_metrics = attacher_metrics.leader_election();
  LeaderElectionHooks hooks;
  hooks.on_leading_changed = [&le_metrics](bool leading) {
    le_metrics.master_status.Set(leading ? 1 : 0);
  };
  hooks.on_slow_path = [&le_metrics] { le_metrics.slowpath_total.Inc(); };
  base::Result<std::shared_ptr<LeaderElection>> election =
      LeaderElection::Create(options, leader_election_config, *driver_name, std::move(hooks));
  if (!election.ok()) return Fail("Failed to initialize leader election", election.error());
  // Only --http-endpoint serves the health check (not --metrics-address).
  if (http_server && !options.http_endpoint.empty()) {
    http_server->Handle("/healthz/leader-election", [election = *election] {
      base::Status status = election->Check();
      if (status.ok()) return metrics::HttpResponse{200, "ok"};
      return metrics::HttpResponse{500, "internal server error: " + status.error().message + "\n"};
    });
  }
  return (*election)->Run(run_controller, stop);
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
    *env.out << program << " " << base::Version() << std::endl;
    return 0;
  }
  LOG_INFO("Version").With("version", base::Version());

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
