// The flags every binary shares, grouped as upstream's binaries share them:
// component-base's process flags, client-go's connection flags, and
// csi-lib-utils' standardflags for leader election and the HTTP endpoint. A
// binary embeds the option groups it uses in its own options struct and calls
// the matching Register function on its base::FlagSet before adding its own
// flags (usage lists flags sorted by name, so the order is free).
//
// Registration writes the defaults at once; the options must outlive the
// FlagSet. Help texts are our own; names, types and defaults are upstream's.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "base/flags.h"
#include "base/log_options.h"
#include "component/feature_gates.h"

namespace component {

// --version, --feature-gates, --automaxprocs and the logging flags.
struct ProcessOptions {
  bool show_version = false;
  std::map<std::string, bool> feature_gates;
  // Accepted for compatibility; a Go runtime knob with no C++ meaning.
  bool automaxprocs = false;
  base::LoggingOptions logging;
};

// --kubeconfig, --kube-api-qps, --kube-api-burst.
struct KubeClientOptions {
  std::string kubeconfig;
  std::string master;  // --master, in the binaries that have it (RegisterMasterFlag)
  double kube_api_qps = 5;
  int64_t kube_api_burst = 10;
};

// --leader-election, its tuning flags and --leader-election-labels.
struct LeaderElectionOptions {
  bool leader_election = false;
  std::string leader_election_namespace;
  std::chrono::nanoseconds leader_election_lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds leader_election_renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds leader_election_retry_period = std::chrono::seconds(5);
  std::map<std::string, std::string> leader_election_labels;
};

// --http-endpoint, --metrics-address (deprecated) and --metrics-path.
struct HttpEndpointOptions {
  std::string http_endpoint;
  std::string metrics_address;
  std::string metrics_path = "/metrics";
};

// --retry-interval-start and --retry-interval-max: the delay before a
// failed step is retried, doubling with each further failure up to the
// maximum. Not csi-lib-utils', but all three binaries have them, with these
// defaults.
struct RetryIntervalOptions {
  std::chrono::nanoseconds retry_interval_start = std::chrono::seconds(1);
  std::chrono::nanoseconds retry_interval_max = std::chrono::minutes(5);
};

// Everything a CSI sidecar shares (csi-lib-utils' standardflags and more).
struct SidecarOptions : ProcessOptions,
                        KubeClientOptions,
                        LeaderElectionOptions,
                        HttpEndpointOptions {
  std::string csi_address = "/run/csi/socket";
};

// --automaxprocs and the logging flags: all the process flags of binaries
// without feature gates (livenessprobe has no --version either).
void RegisterAutomaxprocsAndLoggingFlags(base::FlagSet& flags, ProcessOptions& options);
// --version alone.
void RegisterVersionFlag(base::FlagSet& flags, ProcessOptions& options);
// The --feature-gates help lists the gates `gates` knows.
void RegisterProcessFlags(base::FlagSet& flags, ProcessOptions& options, const FeatureGates& gates);
void RegisterKubeClientFlags(base::FlagSet& flags, KubeClientOptions& options);
// --master: the API server's URL, overriding the kubeconfig's (the
// provisioner and the resizer have it, as upstream's).
void RegisterMasterFlag(base::FlagSet& flags, KubeClientOptions& options);
// --leader-election and its namespace and durations.
void RegisterLeaderElectionFlags(base::FlagSet& flags, LeaderElectionOptions& options);
// --http-endpoint and --metrics-path.
void RegisterHttpEndpointFlags(base::FlagSet& flags, HttpEndpointOptions& options);
// csi-lib-utils' standardflags add --leader-election-labels and the
// deprecated --metrics-address to the two groups above; the
// snapshot-controller's own flag set has neither (docs/snapshots.md §4.1), so
// its options keep their defaults: no labels, no metrics-only address.
void RegisterLeaderElectionLabelsFlag(base::FlagSet& flags, LeaderElectionOptions& options);
void RegisterMetricsAddressFlag(base::FlagSet& flags, HttpEndpointOptions& options);
// `failed_step` says what is retried ("a failed attach or detach"); a
// `start_note` ends the help of --retry-interval-start.
void RegisterRetryIntervalFlags(base::FlagSet& flags, RetryIntervalOptions& options,
                                std::string_view failed_step, std::string_view start_note = "");
// All of the above (but the retry intervals) plus --csi-address.
void RegisterSidecarFlags(base::FlagSet& flags, SidecarOptions& options, const FeatureGates& gates);

}  // namespace component
