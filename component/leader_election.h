// LeaderElection: a binary's use of kube::LeaderElector, as csi-lib-utils'
// leaderelection package sets it up. The binary names the Lease and the
// identity; the namespace comes from the flag / POD_NAMESPACE / the service
// account file / "default", the labels and durations from the flags, and the
// elector gets a client of its own, as upstream's clientset of its own: the
// binary's client's transport with its own QPS limiter, so renewals never
// wait behind the work's requests, and no request outliving the renew
// deadline.
//
// Run() runs the work only while leading. Losing the Lease logs "Stopped
// leading" and ends the process with exit 1 at once, as upstream does. A
// graceful stop stops the work, waits for it to return, releases the Lease
// (empty holder, leaseDurationSeconds 1) so a standby takes over at once, and
// returns 0.
//
// Thread-safety: Check() may be called from any thread (the HTTP endpoint's
// /healthz/leader-election); Run() once, from one thread.
#pragma once

#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "base/result.h"
#include "component/standard_flags.h"
#include "kube/client/client.h"
#include "kube/tools/leader_elector.h"

namespace component {

// What leader election reports to metrics; both optional.
struct LeaderElectionHooks {
  std::function<void(bool leading)> on_leading_changed;
  std::function<void()> on_slow_path;
};

// With --leader-election, the durations must satisfy client-go's leader
// elector (lease > renew deadline > 1.2 x retry period, all positive); its
// messages are kept. Without it they are not looked at, as upstream.
base::Status CheckLeaderElection(const LeaderElectionOptions& options);

// --leader-election-namespace, else $POD_NAMESPACE, else the trimmed content
// of `service_account_namespace_file`, else "default".
std::string LeaderElectionNamespace(const LeaderElectionOptions& options,
                                    const std::string& service_account_namespace_file =
                                        "/var/run/secrets/kubernetes.io/serviceaccount/namespace");

// The Lease a binary competes for, and who it is in that competition.
struct LeaseIdentity {
  std::string lease_name;
  std::string identity;
};

class LeaderElection {
 public:
  // The elector's client is made from `client` (kube::Client::WithOwnTokenBucket).
  static std::shared_ptr<LeaderElection> Create(const LeaderElectionOptions& options,
                                                const kube::Client& client, LeaseIdentity lease,
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

}  // namespace component
