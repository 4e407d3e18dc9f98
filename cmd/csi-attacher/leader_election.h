// LeaderElection: the sidecar's use of kube::LeaderElector (BEHAVIOR.md §3,
// §7): the Lease "external-attacher-leader-<driver>" (sanitized), the
// sanitized hostname as identity, the namespace from the flag / POD_NAMESPACE
// / the service account file / "default", labels from the flag, and a client
// of its own (same RestConfig, its own QPS limiter).
//
// Run() runs the controller only while leading. Losing the Lease logs
// "Stopped leading" and ends the process with exit 1 at once, as upstream
// does. A graceful stop (SIGTERM/SIGINT) stops the controller, waits for
// in-flight syncs, releases the Lease (empty holder, leaseDurationSeconds 1)
// so a standby takes over at once, and returns 0.
//
// Test hook: env CSI_ATTACHER_LEADER_IDENTITY, when set, replaces the
// hostname as identity (integration tests run two attachers on one host).
//
// Thread-safety: Check() may be called from any thread (the HTTP server's
// /healthz/leader-election); Run() once, from one thread.
#pragma once

#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "cmd/csi-attacher/options.h"
#include "kube/client/client.h"
#include "kube/client/config.h"
#include "kube/tools/leader_elector.h"

namespace csiattacher {

// What leader election reports to metrics; both optional.
struct LeaderElectionHooks {
  std::function<void(bool leading)> on_leading_changed;
  std::function<void()> on_slow_path;
};

// --leader-election-namespace, else $POD_NAMESPACE, else the trimmed content
// of `service_account_namespace_file`, else "default".
std::string LeaderElectionNamespace(const Options& options,
                                    const std::string& service_account_namespace_file =
                                        "/var/run/secrets/kubernetes.io/serviceaccount/namespace");

// $CSI_ATTACHER_LEADER_IDENTITY if set (test hook), else the hostname;
// sanitized like the Lease name.
base::Result<std::string> LeaderElectionIdentity();

class LeaderElection {
 public:
  // Fails if the identity or the client cannot be had.
  static base::Result<std::shared_ptr<LeaderElection>> Create(const Options& options,
                                                              const kube::RestConfig& config,
                                                              const std::string& driver,
                                                              LeaderElectionHooks hooks);

  // The health check of /healthz/leader-election.
  base::Status Check() const { return elector_->Check(); }

  // Runs `lead` while leading until `stop`; returns the exit code: 0 (a loss never returns).
  int Run(std::function<void(std::stop_token)> lead, std::stop_token stop);

 private:
  LeaderElection(kube::LeaderElectionConfig config, LeaderElectionHooks hooks,
                 std::unique_ptr<kube::Client> client);

  kube::LeaderElectionConfig config_;
  LeaderElectionHooks hooks_;
  std::unique_ptr<kube::Client> client_;
  kube::ClientLeaseApi api_;
  std::function<void(std::stop_token)> lead_;  // set by Run before the elector runs
  std::stop_token stop_;                       // set by Run before the elector runs
  std::unique_ptr<kube::LeaderElector> elector_;
};

}  // namespace csiattacher
