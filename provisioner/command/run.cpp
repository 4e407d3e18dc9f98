#include "provisioner/command/run.h"

#include <memory>
#include <optional>

#include "base/log.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/http_endpoint.h"
#include "component/kube_config.h"
#include "component/leader_identity.h"
#include "component/node_name.h"
#include "component/run_leading.h"
#include "component/shutdown_signals.h"
#include "component/sidecar_startup.h"
#include "component/volume_attributes_class_gate.h"
#include "kube/client/client.h"
#include "provisioner/command/options.h"
#include "provisioner/command/setup.h"
#include "provisioner/names.h"
#include "provisioner/provisioner_metrics.h"
#include "provisioner/run_provisioner.h"

namespace csiprovisioner {
namespace {

using component::Fail;

std::optional<int> StartHttpEndpoint(const Options& options, component::HttpEndpoint& endpoint,
                                     metrics::Registry& registry) {
  if (component::HttpAddress(options).empty()) return std::nullopt;
  if (base::Status s = endpoint.Start(options, registry); !s.ok()) {
    return component::FailFatally("failed to listen on address " + component::HttpAddress(options) +
                                  ": " + s.error().message);
  }
  return std::nullopt;
}

// Everything after the checks that need no connection: the API client, the
// driver, then the controllers until `env.stop`.
int Serve(const std::string& program, const Options& options, const component::FeatureGates& gates,
          const std::string& node_name, const RunEnvironment& env) {
  int exit_code = component::kExitFailure;
  std::unique_ptr<kube::Client> client =
      component::SidecarClientOrExit(options, program, exit_code);
  if (!client) return exit_code;

  // Before the connection, whose metrics hook records into it.
  provisioner::ProvisionerMetrics provisioner_metrics;
  component::HttpEndpoint endpoint;
  component::SidecarStartup startup;
  startup.csi_address = options.csi_address;
  startup.metrics = provisioner_metrics.CsiHook();
  startup.probe_timeout = options.timeout;
  startup.identity_timeout = options.timeout;
  startup.on_driver_named = [&](const std::string& driver_name) -> std::optional<int> {
    provisioner_metrics.SetDriverName(driver_name);
    return std::nullopt;
  };
  provisioner::RunProvisionerOptions provisioner_options = ProvisionerOptionsFrom(options, gates);
  provisioner_options.claims.request.volume_attributes_class =
      component::SettleVolumeAttributesClassGate(
          *client, gates.Enabled(kVolumeAttributesClass),
          options.feature_gates.contains(std::string(kVolumeAttributesClass)));
  std::unique_ptr<kube::Client> capacity_client;
  return component::RunSidecar(startup, env, [&](const component::CsiDriver& driver) {
    if (base::Status s = SetUpForDriver(options, gates, node_name, driver, *client, capacity_client,
                                        provisioner_options);
        !s.ok()) {
      return component::FailFatally(s.error().message);
    }
    // §2.4 step 9: the HTTP server once the driver is known.
    if (auto exit = StartHttpEndpoint(options, endpoint, provisioner_metrics.registry())) {
      return *exit;
    }
    component::Leadership leadership{
        provisioner::LeaseNameFor(driver.name),
        [] { return component::LeaderElectionIdentity("CSI_PROVISIONER_LEADER_IDENTITY"); },
        provisioner_metrics.leader_election(), endpoint};
    auto run = [&](std::stop_token stop) {
      provisioner::RunProvisioner(provisioner_options, driver, *client, provisioner_metrics, stop);
    };
    return component::RunLeading(options, *client, std::move(leadership), run,
                                 env.stop.get_token());
  });
}

}  // namespace

int Run(const std::vector<std::string>& args, RunEnvironment env) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "csi-provisioner"), env.err);
  RegisterFlags(flags, options);
  component::FeatureGates gates(KnownFeatureSpecs());
  std::string node_name;
  if (std::optional<int> exit = component::ParseCommandLine(
          args, flags, options, gates, *env.out, component::BadFeatureGates::kFatal,
          [&]() -> std::optional<int> {
            base::Status s = component::ReadNodeName(options.node_deployment, node_name);
            if (s.ok()) return std::nullopt;
            return component::FailFatally(s.error().message);
          })) {
    return *exit;
  }
  if (base::Status s = component::CheckHttpEndpoint(options); !s.ok()) {
    return Fail(s.error().message);
  }
  if (base::Status s = CheckOptions(options); !s.ok()) return Fail(s.error().message);
  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(flags.program(), options, gates, node_name, env);
}

int Run(int argc, const char* const* argv) {
  return Run(std::vector<std::string>(argv, argv + argc),
             component::ProcessEnvironment("CSI_PROVISIONER_TERMINATION_LOG"));
}

}  // namespace csiprovisioner
