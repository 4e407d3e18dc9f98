#include "cmd/csi-provisioner/run.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>

#include "base/log.h"
#include "cmd/csi-provisioner/options.h"
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
#include "component/volume_attributes_class_gate.h"
#include "kube/client/client.h"
#include "provisioner/capacity_owner.h"
#include "provisioner/names.h"
#include "provisioner/node_deployment.h"
#include "provisioner/provisioner_metrics.h"
#include "provisioner/run_provisioner.h"

namespace csiprovisioner {
namespace {

using component::Fail;

// §2.4 step 7: "<unix ms>-<0..9999>-<driver>", recorded in every PV it
// makes; in node deployment "-<node>" follows.
std::string ProvisionerIdentity(const std::string& driver_name, const std::string& node_name) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  std::random_device seed;
  std::uniform_int_distribution<int> random(0, 9999);
  std::string identity =
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count()) + "-" +
      std::to_string(random(seed)) + "-" + driver_name;
  if (!node_name.empty()) identity += "-" + node_name;
  return identity;
}

// §2.4 step 1: node deployment needs $NODE_NAME, checked before --version.
std::optional<int> ReadNodeName(const Options& options, std::string& node_name) {
  if (!options.node_deployment) return std::nullopt;
  if (const char* node = std::getenv("NODE_NAME"); node && *node) node_name = node;
  if (!node_name.empty()) return std::nullopt;
  // Upstream's words, with the flag name it never had.
  return component::FailFatally(
      "The NODE_NAME environment variable must be set when using --enable-node-deployment.");
}

// §2.4 step 7, §3.12: who this node is, asked once; the claims and volumes
// it is responsible for follow from it, and so does its capacity (§5).
std::optional<int> SetUpNodeDeployment(const Options& options, const std::string& node_name,
                                       const component::CsiDriver& driver,
                                       provisioner::RunProvisionerOptions& out) {
  base::Result<provisioner::NodeInfo> info =
      provisioner::ReadNodeInfo(driver.connection, options.timeout);
  if (!info.ok()) {
    return component::FailFatally("Failed to get node info from CSI driver: " +
                                  info.error().message);
  }
  out.claims.node = provisioner::NodeDeploymentOptions{
      .node_name = node_name,
      .info = std::move(*info),
      .immediate_binding = options.node_deployment_immediate_binding,
      .base_delay = options.node_deployment_base_delay,
      .max_delay = options.node_deployment_max_delay};
  return std::nullopt;
}

provisioner::RunProvisionerOptions ProvisionerOptionsFrom(const Options& options,
                                                          const component::FeatureGates& gates) {
  provisioner::RunProvisionerOptions out;
  out.timeout = options.timeout;
  // Upstream's claims and volumes are resynced every 15 minutes; there is no flag.
  out.claims.loop =
      component::LoopOptionsFrom(options.worker_threads, options, std::chrono::minutes(15));
  out.claims.request = {
      .volume_name_prefix = options.volume_name_prefix,
      .volume_name_uuid_length = static_cast<int>(options.volume_name_uuid_length),
      .default_fstype = options.default_fstype,
      .extra_create_metadata = options.extra_create_metadata,
      .volume_attributes_class = gates.Enabled(kVolumeAttributesClass),
      .cross_namespace_data_sources = gates.Enabled(kCrossNamespaceVolumeDataSource),
      .prevent_volume_mode_conversion = options.prevent_volume_mode_conversion};
  out.claims.controller_publish_readonly = options.controller_publish_readonly;
  // Below one starts no worker, as upstream's loop would.
  out.cloning_protection_threads =
      static_cast<uint32_t>(std::max<int64_t>(0, options.cloning_protection_threads));
  out.snapshot_orphan_sweep_interval = options.snapshot_orphan_sweep_interval;
  return out;
}

// §2.4 step 8: capacity tracking needs $NAMESPACE, and $POD_NAME for an
// owner; its client has the capacity QPS budget of its own.
std::optional<int> SetUpCapacity(const Options& options, kube::RestConfig config,
                                 const std::string& driver_name,
                                 std::unique_ptr<kube::Client>& client,
                                 provisioner::RunProvisionerOptions& out) {
  const char* ns = std::getenv("NAMESPACE");
  if (!ns || !*ns) {
    return component::FailFatally("need NAMESPACE env variable for CSIStorageCapacity objects");
  }
  config.qps = options.kube_api_capacity_qps;
  config.burst = static_cast<int>(options.kube_api_capacity_burst);
  base::Result<std::unique_ptr<kube::Client>> created = kube::Client::Create(std::move(config));
  if (!created.ok()) return component::FailFatally(created.error().message);
  client = std::move(created).value();
  provisioner::CapacityTracking tracking;
  tracking.controller.driver = driver_name;
  tracking.controller.namespace_ = ns;
  tracking.client = client.get();
  if (options.capacity_ownerref_level >= 0) {
    const char* pod = std::getenv("POD_NAME");
    if (!pod || !*pod) {
      return component::FailFatally(
          "need POD_NAME env variable to determine CSIStorageCapacity owner");
    }
    base::Result<kube::OwnerReference> owner = provisioner::LookUpCapacityOwner(
        *client, ns, pod, static_cast<int>(options.capacity_ownerref_level));
    if (!owner.ok()) {
      return component::FailFatally("look up owner(s) of pod: " + owner.error().message);
    }
    LOG_INFO("using " + owner->api_version + "/" + owner->kind + " " + owner->name +
             " as owner of CSIStorageCapacity objects");
    tracking.controller.owner = std::move(*owner);
  }
  if (const auto& node = out.claims.node) {
    tracking.controller.managed_by = provisioner::NodeCapacityManagedBy(node->node_name);
    tracking.controller.fixed_segment = node->info.topology.value_or(provisioner::TopologyTerm{});
  }
  tracking.controller.immediate_binding = options.capacity_for_immediate_binding;
  tracking.controller.poll_interval = options.capacity_poll_interval;
  tracking.controller.loop = {
      .name = std::string(provisioner::kCapacityQueueName),
      .workers = static_cast<uint32_t>(std::max<int64_t>(0, options.capacity_threads)),
      .retry_start = out.claims.loop.retry_interval_start,
      .retry_max = out.claims.loop.retry_interval_max};
  out.capacity = std::move(tracking);
  return std::nullopt;
}

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
  base::Result<kube::RestConfig> config = component::LoadKubeConfig(options, program);
  if (!config.ok()) return component::FailFatally(config.error().message);
  if (base::Status s = component::ApplyRateLimits(options, *config); !s.ok()) {
    return component::FailFatally(s.error().message);
  }
  if (base::Status s = component::CheckLeaderElection(options); !s.ok()) {
    return Fail("Failed to initialize leader election", s.error());
  }
  const kube::RestConfig rest_config = *config;
  base::Result<std::unique_ptr<kube::Client>> client = kube::Client::Create(std::move(*config));
  if (!client.ok()) return component::FailFatally(client.error().message);

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
          **client, gates.Enabled(kVolumeAttributesClass),
          options.feature_gates.contains(std::string(kVolumeAttributesClass)));
  std::unique_ptr<kube::Client> capacity_client;
  return component::RunSidecar(startup, env, [&](const component::CsiDriver& driver) {
    provisioner_options.identity = ProvisionerIdentity(driver.name, node_name);
    // §3.6: topology needs both the driver's capability and the gate.
    if (gates.Enabled(kTopology) &&
        driver.capabilities.Has(csi::PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS)) {
      provisioner_options.claims.topology = provisioner::TopologyOptions{
          .strict = options.strict_topology, .immediate = options.immediate_topology};
    }
    if (options.node_deployment) {
      if (auto exit = SetUpNodeDeployment(options, node_name, driver, provisioner_options)) {
        return *exit;
      }
    }
    if (options.enable_capacity) {
      if (auto exit = SetUpCapacity(options, rest_config, driver.name, capacity_client,
                                    provisioner_options)) {
        return *exit;
      }
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
      provisioner::RunProvisioner(provisioner_options, driver, **client, provisioner_metrics, stop);
    };
    return component::RunLeading(options, **client, std::move(leadership), run,
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
          [&] { return ReadNodeName(options, node_name); })) {
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
