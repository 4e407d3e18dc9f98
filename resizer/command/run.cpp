#include "resizer/command/run.h"

#include <memory>
#include <optional>

#include "base/log.h"
#include "base/log_options.h"
#include "base/version.h"
#include "component/exit_codes.h"
#include "component/http_endpoint.h"
#include "component/kube_config.h"
#include "component/leader_election.h"
#include "component/leader_identity.h"
#include "component/loop_options.h"
#include "component/run_leading.h"
#include "component/shutdown_signals.h"
#include "component/sidecar_startup.h"
#include "component/volume_attributes_class_gate.h"
#include "kube/client/client.h"
#include "resizer/command/options.h"
#include "resizer/command/setup.h"
#include "resizer/names.h"
#include "resizer/resizer_metrics.h"
#include "resizer/run_resizer.h"

namespace csiresizer {
namespace {

using component::Fail;

// §2.3 step 1. Upstream answers --version and the HTTP flag conflict before
// it sets the gates, so `--version --feature-gates=Unknown=true` prints the
// version; component::ParseCommandLine sets the gates first.
std::optional<int> ParseResizerCommandLine(const std::vector<std::string>& args,
                                           base::FlagSet& flags, const Options& options,
                                           component::FeatureGates& gates, std::ostream& out) {
  std::vector<std::string> flag_args(args.empty() ? args.begin() : args.begin() + 1, args.end());
  if (base::Status s = flags.Parse(flag_args); !s.ok()) return s.error().code;
  if (base::Status s = base::ValidateAndApplyLoggingOptions(options.logging); !s.ok()) {
    return Fail("LoggingConfiguration is invalid", s.error());
  }
  if (options.show_version) {
    out << flags.program() << " " << base::Version() << std::endl;
    return component::kExitSuccess;
  }
  LOG_INFO("Version").With("version", base::Version());
  if (base::Status s = component::CheckHttpEndpoint(options); !s.ok()) {
    return Fail(s.error().message);
  }
  if (base::Status s = gates.SetFromMap(options.feature_gates); !s.ok()) {
    return Fail("Failed to set feature gates", s.error());
  }
  return std::nullopt;
}

std::optional<int> StartHttpEndpoint(const Options& options, component::HttpEndpoint& endpoint,
                                     metrics::Registry& registry) {
  if (component::HttpAddress(options).empty()) return std::nullopt;
  if (base::Status s = endpoint.Start(options, registry); !s.ok()) {
    return Fail("Failed to start HTTP server", s.error());
  }
  return std::nullopt;
}

// §2.3 steps 6-10 once the driver is known.
int ServeDriver(const Options& options, const base::FlagSet& flags,
                const component::FeatureGates& gates, bool volume_attributes_class,
                const component::CsiDriver& driver, kube::Client& client,
                resizer::ResizerMetrics& metrics, component::HttpEndpoint& endpoint,
                const RunEnvironment& env) {
  base::Result<ResizerSetup> setup =
      SetUpForDriver(options, ResizeTimeout(options, flags), ModifyTimeout(options, flags), gates,
                     volume_attributes_class, driver);
  if (!setup.ok()) {
    return setup.error().code == component::kExitFatal
               ? component::FailFatally(setup.error().message)
               : Fail(setup.error().message);
  }
  if (auto exit = StartHttpEndpoint(options, endpoint, metrics.registry())) return *exit;
  component::Leadership leadership{
      resizer::LeaseNameFor(driver.name),
      [] { return component::LeaderElectionIdentity("CSI_RESIZER_LEADER_IDENTITY"); },
      metrics.leader_election(), endpoint};
  auto run = [&](std::stop_token stop) {
    resizer::RunResizer(setup->run_options, driver, setup->expander.get(), setup->modifier.get(),
                        client, metrics, stop);
  };
  return component::RunLeading(options, client, std::move(leadership), run, env.stop.get_token());
}

int Serve(const base::FlagSet& flags, const Options& options, const component::FeatureGates& gates,
          const RunEnvironment& env) {
  base::Result<kube::RestConfig> config = component::LoadKubeConfig(options, flags.program());
  if (!config.ok()) return Fail("Failed to create cluster config", config.error());
  if (base::Status s = component::ApplyRateLimits(options, *config); !s.ok()) {
    return Fail(s.error().message);
  }
  if (base::Status s = component::CheckLeaderElection(options); !s.ok()) {
    return Fail("Failed to initialize leader election", s.error());
  }
  base::Result<std::unique_ptr<kube::Client>> client = kube::Client::Create(std::move(*config));
  if (!client.ok()) return Fail("Failed to create kube client", client.error());
  const bool volume_attributes_class = component::SettleVolumeAttributesClassGate(
      **client, gates.Enabled(kVolumeAttributesClass),
      options.feature_gates.contains(std::string(kVolumeAttributesClass)));

  resizer::ResizerMetrics metrics;  // before the connection, whose hook records into it
  component::HttpEndpoint endpoint;
  component::SidecarStartup startup;
  startup.csi_address = options.csi_address;
  startup.metrics = metrics.CsiHook();
  startup.probe_timeout = options.timeout;
  startup.identity_timeout = options.timeout;
  startup.on_driver_named = [&](const std::string& driver_name) -> std::optional<int> {
    metrics.SetDriverName(driver_name);
    return std::nullopt;
  };
  return component::RunSidecar(startup, env, [&](const component::CsiDriver& driver) {
    return ServeDriver(options, flags, gates, volume_attributes_class, driver, **client, metrics,
                       endpoint, env);
  });
}

}  // namespace

int Run(const std::vector<std::string>& args, RunEnvironment env) {
  Options options;
  base::FlagSet flags(args.empty() ? std::string("csi-resizer") : args[0], env.err);
  RegisterFlags(flags, options);
  component::FeatureGates gates(KnownFeatureSpecs());
  if (std::optional<int> exit = ParseResizerCommandLine(args, flags, options, gates, *env.out)) {
    return *exit;
  }
  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(flags, options, gates, env);
}

int Run(int argc, const char* const* argv) {
  return Run(std::vector<std::string>(argv, argv + argc),
             component::ProcessEnvironment("CSI_RESIZER_TERMINATION_LOG"));
}

}  // namespace csiresizer
