#include "component/leader_election.h"

#include <chrono>
#include <cstdlib>
#include <utility>

#include "base/ascii.h"
#include "base/file.h"
#include "base/log.h"

namespace component {

base::Status CheckLeaderElection(const LeaderElectionOptions& options) {
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

std::string LeaderElectionNamespace(const LeaderElectionOptions& options,
                                    const std::string& service_account_namespace_file) {
  if (!options.leader_election_namespace.empty()) return options.leader_election_namespace;
  if (const char* ns = std::getenv("POD_NAMESPACE"); ns && *ns) return ns;
  if (base::Result<std::string> file = base::ReadFile(service_account_namespace_file); file.ok()) {
    std::string_view ns = base::TrimSpace(*file);
    if (!ns.empty()) return std::string(ns);
  }
  return "default";
}

std::shared_ptr<LeaderElection> LeaderElection::Create(const LeaderElectionOptions& options,
                                                       const kube::Client& client,
                                                       LeaseIdentity lease,
                                                       LeaderElectionHooks hooks) {
  kube::LeaderElectionConfig le;
  le.namespace_ = LeaderElectionNamespace(options);
  le.name = std::move(lease.lease_name);
  le.identity = std::move(lease.identity);
  le.lease_duration = options.leader_election_lease_duration;
  le.renew_deadline = options.leader_election_renew_deadline;
  le.retry_period = options.leader_election_retry_period;
  for (const auto& [key, value] : options.leader_election_labels) le.labels[key] = value;
  le.release_on_cancel = true;

  // Like client-go's per-call context: no request outlives the renew deadline.
  kube::ClientOptions client_options;
  client_options.request_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(le.renew_deadline);

  LOG_V(2, "Leader election configured")
      .With("lease", le.namespace_ + "/" + le.name)
      .With("identity", le.identity);
  return std::shared_ptr<LeaderElection>(new LeaderElection(
      std::move(le), std::move(hooks), client.WithOwnTokenBucket(client_options)));
}

LeaderElection::LeaderElection(kube::LeaderElectionConfig config, LeaderElectionHooks hooks,
                               std::unique_ptr<kube::Client> client)
    : config_(std::move(config)),
      hooks_(std::move(hooks)),
      client_(std::move(client)),
      api_(*client_) {
  kube::LeaderCallbacks callbacks;
  callbacks.on_started_leading = [this](std::stop_token leading) {
    LOG_V(2, "Became leader, starting");
    lead_(leading);
  };
  callbacks.on_stopped_leading = [this] {
    if (stop_.stop_requested()) return;  // graceful: released, exit 0
    LOG_ERROR("Stopped leading");
    base::FlushAndExit(1);
  };
  callbacks.on_new_leader = [](const std::string& identity) {
    LOG_V(3, "New leader elected").With("identity", identity);
  };
  callbacks.on_leading_changed = hooks_.on_leading_changed;
  callbacks.on_slow_path = hooks_.on_slow_path;
  elector_ = std::make_unique<kube::LeaderElector>(config_, std::move(callbacks), api_,
                                                   base::Clock::Real());
}

int LeaderElection::Run(std::function<void(std::stop_token)> lead, std::stop_token stop) {
  lead_ = std::move(lead);
  stop_ = stop;
  // A loss has already ended the process (on_stopped_leading).
  return elector_->Run(stop) ? 1 : 0;
}

}  // namespace component
