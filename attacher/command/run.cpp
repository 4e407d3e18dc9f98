#include "attacher/command/run.h"

#include <cstdlib>
#include <memory>
#include <optional>

#include "attacher/attacher_metrics.h"
#include "attacher/command/feature_gates.h"
#include "attacher/command/options.h"
#include "attacher/names.h"
#include "attacher/run_controller.h"
#include "base/flags.h"
#include "base/log.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/http_endpoint.h"
#include "component/kube_config.h"
#include "component/leader_election.h"
#include "component/leader_identity.h"
#include "component/loop_options.h"
#include "component/run_leading.h"
#include "component/shutdown_signals.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"

namespace csiattacher {
namespace {

using component::Fail;

// Everything after the checks that need no connection: the API client, the
// driver, then the controller until `env.stop`.
int Serve(const std::string& program, const Options& options, const component::FeatureGates& gates,
          const RunEnvironment& env) {
  base::Result<kube::RestConfig> config = component::LoadKubeConfig(options, program);
  if (!config.ok()) return Fail("Failed to build a Kubernetes config", config.error());
  if (base::Status s = CheckWorkerThreads(options); !s.ok()) return Fail(s.error().message);
  // Upstream's clientset checks the limits when it is built, just after.
  if (base::Status s = component::ApplyRateLimits(options, *config); !s.ok()) {
    return Fail("Failed to create a Clientset", s.error());
  }
  // Upstream finds bad lease durations only when it starts electing, after
  // connecting to the driver; a configuration error is better reported first.
  if (base::Status s = component::CheckLeaderElection(options); !s.ok()) {
    return Fail("Failed to initialize leader election", s.error());
  }
  // Leader election gets a client of its own (own QPS limiter), as upstream:
  // RunLeading makes it from this one.
  base::Result<std::unique_ptr<kube::Client>> client = kube::Client::Create(std::move(*config));
  if (!client.ok()) return Fail("Failed to create a Clientset", client.error());

  // Before the connection, whose metrics hook records into it.
  attacher::AttacherMetrics attacher_metrics;
  component::HttpEndpoint endpoint;
  component::SidecarStartup startup;
  startup.csi_address = options.csi_address;
  startup.metrics = attacher_metrics.CsiHook();
  startup.max_grpc_log_length = static_cast<int>(options.max_grpc_log_length);
  startup.probe_timeout = options.timeout;
  startup.on_driver_named = [&](const std::string& driver_name) -> std::optional<int> {
    attacher_metrics.SetDriverName(driver_name);
    // Upstream starts its HTTP server at this point.
    if (base::Status s = endpoint.Start(options, attacher_metrics.registry()); !s.ok()) {
      LOG_ERROR("Failed to start HTTP server")
          .With("err", s.error().message)
          .With("address", component::HttpAddress(options))
          .With("metricsPath", options.metrics_path);
      return component::kExitFailure;
    }
    return std::nullopt;
  };
  const attacher::RunControllerOptions controller_options = ControllerOptionsFrom(options, gates);
  return component::RunSidecar(startup, env, [&](const component::CsiDriver& driver) {
    component::Leadership leadership{
        attacher::LeaseNameFor(driver.name),
        [] { return component::LeaderElectionIdentity("CSI_ATTACHER_LEADER_IDENTITY"); },
        attacher_metrics.leader_election(), endpoint};
    auto run_controller = [&](std::stop_token stop) {
      attacher::RunController(controller_options, driver, **client, attacher_metrics, stop);
    };
    return component::RunLeading(options, **client, std::move(leadership), run_controller,
                                 env.stop.get_token());
  });
}

}  // namespace

int Run(const std::vector<std::string>& args, RunEnvironment env) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "csi-attacher"), env.err);
  RegisterFlags(flags, options);
  component::FeatureGates gates(KnownFeatureSpecs());
  if (std::optional<int> exit =
          component::ParseCommandLine(args, flags, options, gates, *env.out)) {
    return *exit;
  }
  if (base::Status s = component::CheckHttpEndpoint(options); !s.ok()) {
    return Fail(s.error().message);
  }
  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(flags.program(), options, gates, env);
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
