#include "cmd/csi-attacher/leader_election.h"

#include <chrono>
#include <cstdlib>
#include <utility>

#include "attacher/names.h"
#include "base/file.h"
#include "base/hostname.h"
#include "base/log.h"

namespace csiattacher {

std::string LeaderElectionNamespace(const Options& options,
                                    const std::string& service_account_namespace_file) {
  if (!options.leader_election_namespace.empty()) return options.leader_election_namespace;
  if (const char* ns = std::getenv("POD_NAMESPACE"); ns && *ns) return ns;
  if (base::Result<std::string> file = base::ReadFile(service_account_namespace_file); file.ok()) {
    std::string_view ns = base::TrimSpace(*file);
    if (!ns.empty()) return std::string(ns);
  }
  return "default";
}

base::Result<std::string> LeaderElectionIdentity() {
  if (const char* id = std::getenv("CSI_ATTACHER_LEADER_IDENTITY"); id && *id) {
    return attacher::SanitizeName(id);
  }
  base::Result<std::string> host = base::Hostname();
  if (!host.ok()) return host.error().Wrap("error getting the default leader identity");
  return attacher::SanitizeName(*host);
}

base::Result<std::shared_ptr<LeaderElection>> LeaderElection::Create(const Options& options,
                                                                     const kube::RestConfig& config,
                                                                     const std::string& driver,
                                                                     LeaderElectionHooks hooks) {
  base::Result<std::string> identity = LeaderElectionIdentity();
  if (!identity.ok()) return identity.error();

  kube::LeaderElectionConfig le;
  le.namespace_ = LeaderElectionNamespace(options);
  le.name = attacher::LeaseNameFor(driver);
  le.identity = *identity;
  le.lease_duration = options.leader_election_lease_duration;
  le.renew_deadline = options.leader_election_renew_deadline;
  le.retry_period = options.leader_election_retry_period;
  for (const auto& [key, value] : options.leader_election_labels) le.labels[key] = value;
  le.release_on_cancel = true;

  // Like client-go's per-call context: no request outlives the renew deadline.
  kube::ClientOptions client_options;
  client_options.request_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(le.renew_deadline);
  base::Result<std::unique_ptr<kube::Client>> client =
      kube::Client::Create(config, base::Clock::Real(), client_options);
  if (!client.ok()) return client.error().Wrap("failed to create the leader election client");

  LOG_V(2, "Leader election configured")
      .With("lease", le.namespace_ + "/" + le.name)
      .With("identity", le.identity);
  return std::shared_ptr<LeaderElection>(
      new LeaderElection(std::move(le), std::move(hooks), std::move(*client)));
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

}  // namespace csiattacher
