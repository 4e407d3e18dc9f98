// The sidecar's command line (BEHAVIOR.md §1.1): every flag upstream's
// external-attacher accepts, with the same name, type and default, so an
// existing Deployment's args work unchanged. Help texts are our own.
//
// The checks below are the ones upstream makes after parsing; each returns
// the message upstream logs, and each failure means exit 1. Run() calls them
// at the points of the startup sequence where upstream does (§1.4).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "base/flags.h"
#include "base/log_options.h"
#include "base/result.h"

namespace csiattacher {

struct Options {
  // Controller.
  std::chrono::nanoseconds resync = std::chrono::minutes(10);
  std::chrono::nanoseconds timeout = std::chrono::seconds(15);
  std::chrono::nanoseconds retry_interval_start = std::chrono::seconds(1);
  std::chrono::nanoseconds retry_interval_max = std::chrono::minutes(5);
  uint64_t worker_threads = 10;
  int64_t max_entries = 0;
  std::string default_fstype;
  std::chrono::nanoseconds reconcile_sync = std::chrono::minutes(1);
  int64_t max_grpc_log_length = -1;
  std::map<std::string, bool> feature_gates;
  bool show_version = false;

  // Connections.
  std::string kubeconfig;
  std::string csi_address = "/run/csi/socket";
  double kube_api_qps = 5;
  int64_t kube_api_burst = 10;

  // Leader election.
  bool leader_election = false;
  std::string leader_election_namespace;
  std::chrono::nanoseconds leader_election_lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds leader_election_renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds leader_election_retry_period = std::chrono::seconds(5);
  std::map<std::string, std::string> leader_election_labels;

  // HTTP endpoint.
  std::string http_endpoint;
  std::string metrics_address;
  std::string metrics_path = "/metrics";

  // Accepted for compatibility; a Go runtime knob with no C++ meaning.
  bool automaxprocs = false;

  base::LoggingOptions logging;
};

// Registers every flag on `flags`, writing into `options` (which must outlive
// `flags`). The --feature-gates help lists the gates FeatureGates knows.
void RegisterFlags(base::FlagSet& flags, Options& options);

// --metrics-address and --http-endpoint are mutually exclusive.
base::Status CheckHttpEndpoint(const Options& options);

// --worker-threads must be positive.
base::Status CheckWorkerThreads(const Options& options);

// With --leader-election, the durations must satisfy client-go's leader
// elector (lease > renew deadline > 1.2 x retry period, all positive); its
// messages are kept. Without it they are not looked at, as upstream.
base::Status CheckLeaderElection(const Options& options);

// The client rate limit that --kube-api-qps/--kube-api-burst mean to
// client-go: qps > 0 needs burst > 0 (else the error client-go gives); qps 0
// means client-go's defaults, 5 qps and (burst 0 meaning) 10; qps < 0 means
// no limit, returned as qps <= 0 like kube::TokenBucket takes it.
struct KubeApiRateLimits {
  double qps;
  int burst;
};
base::Result<KubeApiRateLimits> RateLimitsFor(const Options& options);

// The address the HTTP server would listen on (metrics-address wins).
std::string HttpAddress(const Options& options);

}  // namespace csiattacher
