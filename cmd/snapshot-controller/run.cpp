#include "cmd/snapshot-controller/run.h"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "base/clock.h"
#include "base/duration.h"
#include "base/flags.h"
#include "base/log.h"
#include "cmd/snapshot-controller/options.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/http_endpoint.h"
#include "component/leader_election.h"
#include "component/leader_identity.h"
#include "component/loop_options.h"
#include "component/run_leading.h"
#include "component/shutdown_signals.h"
#include "metrics/registry.h"
#include "snapshot/feature_gates.h"
#include "snapshot/snapshot_clients.h"
#include "snapshot_controller/crd_check.h"
#include "snapshot_controller/operation_metrics.h"
#include "snapshot_controller/run_controller.h"

namespace snapshotcontroller {
namespace {

using component::Fail;

// docs/snapshots.md §4.1.
constexpr char kLeaseName[] = "snapshot-controller-leader";

snapshot_controller::RunControllerOptions ControllerOptionsFrom(const Options& options,
                                                                bool group_snapshots) {
  snapshot_controller::RunControllerOptions out;
  out.controller =
      component::LoopOptionsFrom(options.worker_threads, options, options.resync_period);
  out.handler.prevent_volume_mode_conversion = options.prevent_volume_mode_conversion;
  out.handler.enable_distributed_snapshotting = options.enable_distributed_snapshotting;
  out.group_snapshots = group_snapshots;
  return out;
}

// Upstream listens once the CRDs are there, and a listen failure is fatal.
std::optional<int> StartHttpEndpoint(const Options& options, component::HttpEndpoint& endpoint,
                                     metrics::Registry& registry) {
  if (options.http_endpoint.empty()) return std::nullopt;
  if (base::Status s = endpoint.Start(options, registry); !s.ok()) {
    return component::FailFatally(fmt::format("failed to listen on address[{}], error[{}]",
                                              options.http_endpoint, s.error().message));
  }
  LOG_INFO(fmt::format("Metrics http server successfully started on {}, {}", options.http_endpoint,
                       options.metrics_path));
  return std::nullopt;
}

// Everything after the command line: the client, the CRD checks, the HTTP
// endpoint, then the controller until `env.stop`.
int Serve(const std::string& program, const Options& options, const component::FeatureGates& gates,
          const RunEnvironment& env) {
  // One client per upstream clientset, each with its own QPS limiter; leader
  // election's, a third, RunLeading makes from the core one (docs/snapshots.md
  // §3.2 step 1).
  base::Result<snapshot::SnapshotClients> clients =
      snapshot::SnapshotClients::FromFlags(options, program);
  if (!clients.ok()) return Fail(clients.error().message);
  // Upstream finds bad lease durations only when it starts electing; a
  // configuration error is better reported before the CRDs are waited for.
  if (base::Status s = component::CheckLeaderElection(options); !s.ok()) {
    return Fail("Failed to initialize leader election", s.error());
  }

  // Its own registry, served only with --http-endpoint (§4.6).
  metrics::Registry registry;
  snapshot_controller::OperationMetrics operation_metrics(registry, base::Clock::Real());
  if (!options.http_endpoint.empty()) {
    LOG_INFO("Metrics path successfully registered at " + options.metrics_path);
  }

  const snapshot_controller::CrdWait crd_wait{options.retry_crd_interval_max, base::Clock::Real(),
                                              env.stop.get_token()};
  if (std::optional<int> exit =
          snapshot_controller::EnsureSnapshotCrds(*clients->snapshots, crd_wait)) {
    return *exit;
  }
  const snapshot_controller::GroupSnapshotsCheck groups = snapshot_controller::StartGroupSnapshots(
      gates.Enabled(snapshot::kCSIVolumeGroupSnapshot), *clients->snapshots, crd_wait);
  if (groups.exit) return *groups.exit;
  LOG_V(2, fmt::format("Start NewCSISnapshotController with kubeconfig [{}] resyncPeriod [{}]",
                       options.kubeconfig, base::FormatDuration(options.resync_period)));

  component::HttpEndpoint endpoint;
  if (std::optional<int> exit = StartHttpEndpoint(options, endpoint, registry)) return *exit;
  component::Leadership leadership{
      kLeaseName,
      [] { return component::LeaderElectionIdentity("SNAPSHOT_CONTROLLER_LEADER_IDENTITY"); },
      std::nullopt, endpoint};
  const snapshot_controller::RunControllerOptions controller_options =
      ControllerOptionsFrom(options, groups.enabled);
  auto run_controller = [&](std::stop_token stop) {
    snapshot_controller::RunController(controller_options, *clients, operation_metrics, stop);
  };
  return component::RunLeading(options, *clients->core, std::move(leadership), run_controller,
                               env.stop.get_token());
}

}  // namespace

int Run(const std::vector<std::string>& args, RunEnvironment env) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "snapshot-controller"), env.err);
  RegisterFlags(flags, options);
  component::FeatureGates gates(snapshot::KnownFeatureSpecs());
  if (std::optional<int> exit = component::ParseCommandLine(args, flags, options, gates, *env.out,
                                                            component::BadFeatureGates::kFatal)) {
    return *exit;
  }
  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(flags.program(), options, gates, env);
}

int Run(int argc, const char* const* argv) {
  return Run(std::vector<std::string>(argv, argv + argc));
}

}  // namespace snapshotcontroller
