#include "component/standard_flags.h"

#include <memory>

#include "base/flag_maps.h"

namespace component {
namespace {

std::string FeatureGatesHelp(const FeatureGates& gates) {
  std::string help =
      "Comma-separated Name=true|false pairs that switch feature gates on or off. Known gates:";
  for (const std::string& line : gates.KnownFeatures()) help += "\n" + line;
  return help;
}

}  // namespace

void RegisterAutomaxprocsAndLoggingFlags(base::FlagSet& flags, ProcessOptions& o) {
  flags.Bool("automaxprocs", &o.automaxprocs, o.automaxprocs,
             "Accepted for compatibility with the Go sidecar, where it sizes GOMAXPROCS from the "
             "cgroup CPU quota; it has no effect here.");
  base::RegisterLoggingFlags(&flags, &o.logging);
}

void RegisterVersionFlag(base::FlagSet& flags, ProcessOptions& o) {
  flags.Bool("version", &o.show_version, o.show_version, "Print the version and exit.");
}

void RegisterProcessFlags(base::FlagSet& flags, ProcessOptions& o, const FeatureGates& gates) {
  flags.Var("feature-gates", std::make_unique<base::MapStringBoolValue>(&o.feature_gates),
            FeatureGatesHelp(gates));
  RegisterVersionFlag(flags, o);
  RegisterAutomaxprocsAndLoggingFlags(flags, o);
}

void RegisterKubeClientFlags(base::FlagSet& flags, KubeClientOptions& o) {
  flags.String("kubeconfig", &o.kubeconfig, o.kubeconfig,
               "Path to a kubeconfig file; needed only outside a cluster (the default uses the "
               "pod's service account).");
  flags.Float64("kube-api-qps", &o.kube_api_qps, o.kube_api_qps,
                "Sustained requests per second allowed to the Kubernetes API server.");
  flags.Int("kube-api-burst", &o.kube_api_burst, o.kube_api_burst,
            "Requests allowed in a burst above kube-api-qps.");
}

void RegisterMasterFlag(base::FlagSet& flags, KubeClientOptions& o) {
  flags.String("master", &o.master, o.master,
               "API server URL, in place of the kubeconfig's; outside a cluster, --kubeconfig is "
               "the usual way to name it.");
}

void RegisterLeaderElectionFlags(base::FlagSet& flags, LeaderElectionOptions& o) {
  flags.Bool("leader-election", &o.leader_election, o.leader_election,
             "Run only while holding a Lease, so that one of several replicas works at a time.");
  flags.String("leader-election-namespace", &o.leader_election_namespace,
               o.leader_election_namespace,
               "Namespace of the leader election Lease; the pod's own namespace when empty.");
  flags.Duration("leader-election-lease-duration", &o.leader_election_lease_duration,
                 o.leader_election_lease_duration,
                 "How long a Lease stays valid after its last renewal before a standby may take "
                 "it over.");
  flags.Duration("leader-election-renew-deadline", &o.leader_election_renew_deadline,
                 o.leader_election_renew_deadline,
                 "How long the leader keeps trying to renew its Lease before giving up.");
  flags.Duration("leader-election-retry-period", &o.leader_election_retry_period,
                 o.leader_election_retry_period,
                 "Pause between attempts to acquire or renew the Lease.");
}

void RegisterLeaderElectionLabelsFlag(base::FlagSet& flags, LeaderElectionOptions& o) {
  flags.Var("leader-election-labels",
            std::make_unique<base::ColonMapValue>(&o.leader_election_labels),
            "Labels put on the Lease while this replica leads, as key:value pairs separated by "
            "commas, e.g. 'team:storage,tier:csi'.");
}

void RegisterHttpEndpointFlags(base::FlagSet& flags, HttpEndpointOptions& o) {
  flags.String("http-endpoint", &o.http_endpoint, o.http_endpoint,
               "host:port of an HTTP server for metrics and the leader election health check; "
               "empty means no server.");
  flags.String("metrics-path", &o.metrics_path, o.metrics_path,
               "HTTP path at which metrics are served.");
}

void RegisterMetricsAddressFlag(base::FlagSet& flags, HttpEndpointOptions& o) {
  flags.String("metrics-address", &o.metrics_address, o.metrics_address,
               "Deprecated: host:port of an HTTP server for metrics only; empty means no server. "
               "Excludes http-endpoint.");
}

void RegisterRetryIntervalFlags(base::FlagSet& flags, RetryIntervalOptions& o,
                                std::string_view failed_step, std::string_view start_note) {
  std::string start_help = "Delay before the first retry of " + std::string(failed_step) +
                           "; it doubles with each further failure, up to retry-interval-max.";
  if (!start_note.empty()) start_help += " " + std::string(start_note);
  flags.Duration("retry-interval-start", &o.retry_interval_start, o.retry_interval_start,
                 std::move(start_help));
  flags.Duration("retry-interval-max", &o.retry_interval_max, o.retry_interval_max,
                 "Longest delay between retries of " + std::string(failed_step) + ".");
}

void RegisterSidecarFlags(base::FlagSet& flags, SidecarOptions& o, const FeatureGates& gates) {
  RegisterProcessFlags(flags, o, gates);
  RegisterKubeClientFlags(flags, o);
  RegisterLeaderElectionFlags(flags, o);
  RegisterLeaderElectionLabelsFlag(flags, o);
  RegisterHttpEndpointFlags(flags, o);
  RegisterMetricsAddressFlag(flags, o);
  flags.String("csi-address", &o.csi_address, o.csi_address,
               "Unix socket of the CSI driver: an absolute path or a unix:// URL.");
}

}  // namespace component
