#include "snapshotter/command/run.h"

#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <optional>

#include "base/duration.h"
#include "base/flags.h"
#include "base/log.h"
#include "base/strconv.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/http_endpoint.h"
#include "component/leader_election.h"
#include "component/leader_identity.h"
#include "component/loop_options.h"
#include "component/node_name.h"
#include "component/run_leading.h"
#include "component/shutdown_signals.h"
#include "component/sidecar_startup.h"
#include "snapshot/feature_gates.h"
#include "snapshot/snapshot_clients.h"
#include "snapshotter/command/options.h"
#include "snapshotter/names.h"
#include "snapshotter/run_sidecar.h"
#include "snapshotter/sidecar_metrics.h"
#include "snapshotter/startup_checks.h"

namespace csisnapshotter {
namespace {

using component::Fail;

// §3.2 step 4: upstream serves HTTP once the driver has named itself, and a
// listen failure is fatal.
std::optional<int> StartHttpEndpoint(const Options& options, component::HttpEndpoint& endpoint,
                                     metrics::Registry& registry) {
  const std::string address = component::HttpAddress(options);
  if (address.empty()) return std::nullopt;
  LOG_INFO("ServeMux listening at " + base::GoQuote(address));
  if (base::Status s = endpoint.Start(options, registry); !s.ok()) {
    return component::FailFatally(fmt::format(
        "Failed to start HTTP server at specified address ({}) and metrics path ({}): {}",
        base::GoQuote(address), base::GoQuote(options.metrics_path), s.error().message));
  }
  return std::nullopt;
}

void LogSidecarOptions(const Options& options, const std::string& driver_name) {
  LOG_V(2, fmt::format("Start NewCSISnapshotSideCarController with snapshotter [{}] kubeconfig "
                       "[{}] csiTimeout [{}] csiAddress [{}] resyncPeriod [{}] snapshotNamePrefix "
                       "[{}] snapshotNameUUIDLength [{}]",
                       driver_name, options.kubeconfig, base::FormatDuration(options.timeout),
                       options.csi_address, base::FormatDuration(options.resync_period),
                       options.snapshot_name_prefix, options.snapshot_name_uuid_length));
}

// Everything after the checks that need no API server: the clients, the
// driver, then the sidecar until `env.stop`.
int Serve(const std::string& program, const Options& options, const component::FeatureGates& gates,
          const RunEnvironment& env) {
  // One client per upstream clientset, each with its own QPS limiter; leader
  // election's, a third, RunLeading makes from the core one (docs/snapshots.md
  // §3.2 step 1).
  base::Result<snapshot::SnapshotClients> clients =
      snapshot::SnapshotClients::FromFlags(options, program);
  if (!clients.ok()) return Fail(clients.error().message);

  std::string node_name;
  if (base::Status s = component::ReadNodeName(options.node_deployment, node_name); !s.ok()) {
    return component::FailFatally(s.error().message);
  }
  if (!component::CheckHttpEndpoint(options).ok()) {
    return Fail("only one of `--metrics-address` and `--http-endpoint` can be set.");
  }
  // Upstream finds bad lease durations only when it starts electing; a
  // configuration error is better reported before the driver is waited for.
  if (base::Status s = component::CheckLeaderElection(options); !s.ok()) {
    return Fail("Failed to initialize leader election", s.error());
  }

  // Before the connection, whose metrics hook records into it.
  snapshotter::SidecarMetrics sidecar_metrics;
  component::HttpEndpoint endpoint;
  component::SidecarStartup startup = snapshotter::SidecarStartupFor(
      options.csi_address, options.timeout, sidecar_metrics.CsiHook());
  startup.on_driver_named = [&](const std::string& driver_name) {
    sidecar_metrics.SetDriverName(driver_name);
    return StartHttpEndpoint(options, endpoint, sidecar_metrics.registry());
  };
  snapshotter::RunSidecarOptions sidecar_options =
      SidecarOptionsFrom(options, std::move(node_name));
  return component::RunSidecar(startup, env, [&](const component::CsiDriver& driver) {
    if (!snapshotter::CheckSnapshotSupport(driver)) return component::kExitFailure;
    LogSidecarOptions(options, driver.name);
    snapshotter::GroupSnapshotsStart groups = snapshotter::StartGroupSnapshots(
        {.enabled = gates.Enabled(snapshot::kCSIVolumeGroupSnapshot),
         .name_prefix = options.groupsnapshot_name_prefix,
         .timeout = options.timeout},
        *clients->snapshots, driver);
    if (groups.exit_code) return *groups.exit_code;
    sidecar_options.group_snapshots = groups.enabled;
    component::Leadership leadership{
        snapshotter::LeaseNameFor(driver.name),
        [] { return component::LeaderElectionIdentity("CSI_SNAPSHOTTER_LEADER_IDENTITY"); },
        sidecar_metrics.leader_election(), endpoint};
    auto run_sidecar = [&](std::stop_token stop) {
      snapshotter::RunSidecar(sidecar_options, driver, *clients, sidecar_metrics, stop);
    };
    return component::RunLeading(options, *clients->core, std::move(leadership), run_sidecar,
                                 env.stop.get_token());
  });
}

}  // namespace

int Run(const std::vector<std::string>& args, RunEnvironment env) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "csi-snapshotter"), env.err);
  RegisterFlags(flags, options);
  component::FeatureGates gates(snapshot::KnownFeatureSpecs());
  if (std::optional<int> exit = component::ParseCommandLine(args, flags, options, gates, *env.out,
                                                            component::BadFeatureGates::kFatal)) {
    return *exit;
  }
  if (base::Status s = CheckNodeDeployment(options); !s.ok()) return Fail(s.error().message);
  // Upstream checks the prefix only after the driver answered; a flag error
  // is better reported before waiting for a driver.
  if (base::Status s = CheckSnapshotName(options); !s.ok()) return Fail(s.error().message);
  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(flags.program(), options, gates, env);
}

int Run(int argc, const char* const* argv) {
  return Run(std::vector<std::string>(argv, argv + argc),
             component::ProcessEnvironment("CSI_SNAPSHOTTER_TERMINATION_LOG"));
}

}  // namespace csisnapshotter
