#include "sidecars/run_sidecars.h"

#include <algorithm>
#include <optional>
#include <stop_token>
#include <thread>

#include "base/log.h"
#include "component/command_line.h"
#include "component/exit_codes.h"
#include "component/http_endpoint.h"
#include "component/kube_config.h"
#include "component/leader_identity.h"
#include "component/run_leading.h"
#include "component/shutdown_signals.h"
#include "component/sidecar_startup.h"
#include "kube/client/client.h"
#include "kube/runtime/informer_set.h"
#include "migration/drivers.h"
#include "sidecars/command_line.h"

namespace sidecars {
namespace {

using component::ControllerPart;
using component::Fail;
using PartList = std::vector<ControllerPart*>;

// A part --controllers selects, with its API client's rate limits.
struct SelectedPart {
  ControllerPart* part;
  component::KubeApiRateLimits api_limits;
};
using SelectedList = std::vector<SelectedPart>;

// The parts that can run with `driver`, each with a client of its own over
// `client`'s transport (its own QPS budget); the others are reported.
PartList PrepareParts(const SelectedList& selected, const component::CsiDriver& driver,
                      const kube::Client& client,
                      std::vector<std::unique_ptr<kube::Client>>& clients) {
  PartList ready;
  for (const auto& [part, limits] : selected) {
    clients.push_back(client.WithOwnTokenBucket(limits.qps, limits.burst));
    if (base::Status s = part->Prepare(driver, *clients.back()); !s.ok()) {
      LOG_ERROR("Controller stays off")
          .With("controller", std::string(part->name()))
          .With("err", s.error().message);
      continue;
    }
    ready.push_back(part);
  }
  return ready;
}

// The shared informers hand their objects again at the shortest period any
// part asks for (0 = never).
kube::ReflectorOptions SharedReflectorOptions(const PartList& parts) {
  std::chrono::nanoseconds period{0};
  for (const ControllerPart* part : parts) {
    const std::chrono::nanoseconds wanted = part->resync_period();
    if (wanted.count() > 0 && (period.count() == 0 || wanted < period)) period = wanted;
  }
  kube::ReflectorOptions options;
  options.resync_period = std::chrono::duration_cast<std::chrono::milliseconds>(period);
  return options;
}

// Each part under its own Lease on a thread of its own, until `env.stop`
// or until one of them fails (which stops the others too). The first
// failure's exit code, else 0.
int RunUnderLeases(const Options& options, const PartList& parts,
                   const std::vector<std::unique_ptr<component::BuiltControllers>>& built,
                   kube::Client& client, component::SidecarMetricFamilies& families,
                   component::HttpEndpoint& endpoint, const component::RunEnvironment& env) {
  std::stop_source all;
  std::stop_callback stop_all(env.stop.get_token(), [&all] { all.request_stop(); });
  std::vector<int> codes(parts.size(), component::kExitSuccess);
  {
    std::vector<std::jthread> threads;
    for (size_t i = 0; i < parts.size(); ++i) {
      threads.emplace_back([&, i] {
        ControllerPart& part = *parts[i];
        const std::string lease = part.lease_name();
        component::Leadership leadership{
            lease, [&part] { return component::LeaderElectionIdentity(part.identity_variable()); },
            families.LeaderElectionFor(lease), endpoint, /*health_per_lease=*/true};
        codes[i] = component::RunLeading(
            options, client, std::move(leadership),
            [&built, i](std::stop_token stop) { built[i]->Run(stop); }, all.get_token());
        if (codes[i] != component::kExitSuccess) all.request_stop();
      });
    }
  }
  auto failed = std::find_if(codes.begin(), codes.end(),
                             [](int code) { return code != component::kExitSuccess; });
  return failed == codes.end() ? component::kExitSuccess : *failed;
}

// Once the driver is known: the parts that can run, their shared informers,
// the HTTP endpoint, then the parts under their Leases.
int ServeDriver(const Options& options, const SelectedList& selected,
                const component::CsiDriver& driver, kube::Client& client,
                component::SidecarMetricFamilies& families, component::HttpEndpoint& endpoint,
                const component::RunEnvironment& env) {
  std::vector<std::unique_ptr<kube::Client>> clients;
  const PartList parts = PrepareParts(selected, driver, client, clients);
  if (parts.empty()) return component::FailFatally("no selected controller can run");
  std::unique_ptr<kube::Client> informer_client = client.WithOwnTokenBucket();
  kube::InformerSet informers(*informer_client, SharedReflectorOptions(parts));
  // After the informers: the controllers go first.
  std::vector<std::unique_ptr<component::BuiltControllers>> built;
  for (ControllerPart* part : parts) built.push_back(part->Build(informers));
  if (base::Status s = endpoint.Start(options, families.registry()); !s.ok()) {
    return component::FailFatally("failed to listen on address " + component::HttpAddress(options) +
                                  ": " + s.error().message);
  }
  // Standbys keep the caches warm too: a part that takes its Lease over
  // finds them synced and its queue holding every object.
  informers.Start();
  for (ControllerPart* part : parts) {
    LOG_INFO("Controller ready").With("controller", std::string(part->name()));
  }
  const int code = RunUnderLeases(options, parts, built, client, families, endpoint, env);
  informers.Stop();
  return code;
}

int Serve(const std::string& program, const Options& options, const SelectedList& selected,
          component::SidecarMetricFamilies& families, const component::RunEnvironment& env) {
  int exit_code = component::kExitFailure;
  std::unique_ptr<kube::Client> client =
      component::SidecarClientOrExit(options, program, exit_code);
  if (!client) return exit_code;

  component::HttpEndpoint endpoint;
  component::SidecarStartup startup;
  startup.csi_address = options.csi_address;
  startup.metrics = families.operations().Hook();
  startup.max_grpc_log_length = static_cast<int>(options.max_grpc_log_length);
  std::chrono::nanoseconds longest{0};
  bool migrated_label = false;
  for (const auto& [part, limits] : selected) {
    longest = std::max(longest, part->csi_timeout());
    migrated_label = migrated_label || part->labels_migrated_calls();
  }
  startup.probe_timeout = longest;
  startup.identity_timeout = longest;
  startup.on_driver_named = [&](const std::string& driver_name) -> std::optional<int> {
    families.operations().SetDriverName(
        driver_name, migrated_label && migration::IsMigratedCsiDriverByName(driver_name));
    return std::nullopt;
  };
  return component::RunSidecar(startup, env, [&](const component::CsiDriver& driver) {
    return ServeDriver(options, selected, driver, *client, families, endpoint, env);
  });
}

}  // namespace

int Run(const std::vector<std::string>& args, component::RunEnvironment env, Parts parts) {
  Options options;
  base::FlagSet flags(component::ProgramName(args, "csi-sidecars"), env.err);
  std::vector<std::unique_ptr<base::FlagSet>> views;
  RegisterFlags(flags, options, parts, views);
  component::FeatureGates gates(UnionOfFeatureSpecs(parts));
  if (std::optional<int> exit = component::ParseCommandLine(args, flags, options, gates, *env.out,
                                                            component::BadFeatureGates::kFatal)) {
    return *exit;
  }
  if (base::Status s = component::CheckHttpEndpoint(options); !s.ok()) {
    return Fail(s.error().message);
  }
  base::Result<std::vector<size_t>> selected = SelectedParts(options, args, parts);
  if (!selected.ok()) return Fail(selected.error().message);

  // Before any part adds its families.
  component::SidecarMetricFamilies families;
  component::VolumeAttributesClassGateOnce volume_attributes_class;
  const component::SharedSettings shared{
      options, gates, flags.IsSet("timeout") ? std::optional(options.timeout) : std::nullopt,
      volume_attributes_class};
  SelectedList selected_parts;
  for (size_t index : *selected) {
    ControllerPart& part = *parts[index];
    if (base::Status s = part.Configure(shared, *views[index], families); !s.ok()) {
      return Fail(s.error().message);
    }
    base::Result<component::KubeApiRateLimits> limits =
        ApiLimitsOf(options, index, *views[index], part.name());
    if (!limits.ok()) return Fail(limits.error().message);
    selected_parts.push_back({&part, *limits});
  }
  // Before Serve starts any thread, so that they all inherit the blocked mask.
  std::optional<component::ShutdownSignals> signals;
  if (env.handle_signals) signals.emplace(env.stop);
  return Serve(flags.program(), options, selected_parts, families, env);
}

}  // namespace sidecars
