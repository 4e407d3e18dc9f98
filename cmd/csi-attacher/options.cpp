#include "cmd/csi-attacher/options.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "base/flag_maps.h"
#include "cmd/csi-attacher/feature_gates.h"

namespace csiattacher {
namespace {

std::string FeatureGatesHelp() {
  std::string help =
      "Comma-separated Name=true|false pairs that switch feature gates on or off. Known gates:";
  for (const std::string& line : FeatureGates().KnownFeatures()) help += "\n" + line;
  return help;
}

}  // namespace

void RegisterFlags(base::FlagSet& flags, Options& o) {
  flags.Duration("resync", &o.resync, o.resync,
                 "How often every cached object is handed to the controller again.");
  flags.Duration("timeout", &o.timeout, o.timeout,
                 "Deadline of each attach or detach call to the CSI driver, of each readiness "
                 "probe, and of each ListVolumes page.");
  flags.Duration("retry-interval-start", &o.retry_interval_start, o.retry_interval_start,
                 "Delay before the first retry of a failed attach or detach; it doubles with "
                 "each further failure, up to retry-interval-max.");
  flags.Duration("retry-interval-max", &o.retry_interval_max, o.retry_interval_max,
                 "Longest delay between retries of a failed attach or detach.");
  flags.Uint("worker-threads", &o.worker_threads, o.worker_threads,
             "Number of workers for VolumeAttachments, and as many again for PersistentVolumes.");
  flags.Int("max-entries", &o.max_entries, o.max_entries,
            "Most entries asked for per ListVolumes page; 0 lets the driver decide.");
  flags.String("default-fstype", &o.default_fstype, o.default_fstype,
               "Filesystem type sent to the driver when a PersistentVolume names none.");
  flags.Duration("reconcile-sync", &o.reconcile_sync, o.reconcile_sync,
                 "How often VolumeAttachments are compared with what the driver reports as "
                 "published (drivers with LIST_VOLUMES_PUBLISHED_NODES only).");
  flags.Int("max-grpc-log-length", &o.max_grpc_log_length, o.max_grpc_log_length,
            "Most characters of a gRPC response written to the log; 0 or less means all.");
  flags.Var("feature-gates", std::make_unique<base::MapStringBoolValue>(&o.feature_gates),
            FeatureGatesHelp());
  flags.Bool("version", &o.show_version, o.show_version, "Print the version and exit.");

  flags.String("kubeconfig", &o.kubeconfig, o.kubeconfig,
               "Path to a kubeconfig file; needed only outside a cluster (the default uses the "
               "pod's service account).");
  flags.String("csi-address", &o.csi_address, o.csi_address,
               "Unix socket of the CSI driver: an absolute path or a unix:// URL.");
  flags.Float64("kube-api-qps", &o.kube_api_qps, o.kube_api_qps,
                "Sustained requests per second allowed to the Kubernetes API server.");
  flags.Int("kube-api-burst", &o.kube_api_burst, o.kube_api_burst,
            "Requests allowed in a burst above kube-api-qps.");

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
  flags.Var("leader-election-labels",
            std::make_unique<base::ColonMapValue>(&o.leader_election_labels),
            "Labels put on the Lease while this replica leads, as key:value pairs separated by "
            "commas, e.g. 'team:storage,tier:csi'.");

  flags.String("http-endpoint", &o.http_endpoint, o.http_endpoint,
               "host:port of an HTTP server for metrics and the leader election health check; "
               "empty means no server. Excludes metrics-address.");
  flags.String("metrics-address", &o.metrics_address, o.metrics_address,
               "Deprecated: host:port of an HTTP server for metrics only; empty means no server. "
               "Excludes http-endpoint.");
  flags.String("metrics-path", &o.metrics_path, o.metrics_path,
               "HTTP path at which metrics are served.");
  flags.Bool("automaxprocs", &o.automaxprocs, o.automaxprocs,
             "Accepted for compatibility with the Go sidecar, where it sizes GOMAXPROCS from the "
             "cgroup CPU quota; it has no effect here.");

  base::RegisterLoggingFlags(&flags, &o.logging);
}

base::Status CheckHttpEndpoint(const Options& options) {
  if (!options.metrics_address.empty() && !options.http_endpoint.empty()) {
    return base::Error("Only one of `--metrics-address` and `--http-endpoint` can be set");
  }
  return base::Status::Ok();
}

base::Status CheckWorkerThreads(const Options& options) {
  if (options.worker_threads == 0) {
    return base::Error("Option -worker-threads must be greater than zero");
  }
  return base::Status::Ok();
}

base::Status CheckLeaderElection(const Options& options) {
  if (!options.leader_election) return base::Status::Ok();
  const auto lease = options.leader_election_lease_duration;
  const auto renew = options.leader_election_renew_deadline;
  const auto retry = options.leader_election_retry_period;
  // client-go's checks, in its order; JitterFactor is 1.2.
  if (lease <= renew) return base::Error("leaseDuration must be greater than renewDeadline");
  if (renew.count() <= static_cast<int64_t>(1.2 * static_cast<double>(retry.count()))) {
    return base::Error("renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  if (lease.count() < 1) return base::Error("leaseDuration must be greater than zero");
  if (renew.count() < 1) return base::Error("renewDeadline must be greater than zero");
  if (retry.count() < 1) return base::Error("retryPeriod must be greater than zero");
  return base::Status::Ok();
}

base::Result<KubeApiRateLimits> RateLimitsFor(const Options& options) {
  // client-go keeps QPS as a float32.
  const double qps = static_cast<float>(options.kube_api_qps);
  const int64_t burst = options.kube_api_burst;
  if (qps > 0 && burst <= 0) {
    return base::Error(
        "burst is required to be greater than 0 when RateLimiter is not set and QPS is set to "
        "greater than 0");
  }
  if (qps == 0) return KubeApiRateLimits{5, burst == 0 ? 10 : static_cast<int>(burst)};
  const int64_t int_max = std::numeric_limits<int>::max();
  return KubeApiRateLimits{qps, static_cast<int>(std::min(burst, int_max))};
}

std::string HttpAddress(const Options& options) {
  return options.metrics_address.empty() ? options.http_endpoint : options.metrics_address;
}

}  // namespace csiattacher
