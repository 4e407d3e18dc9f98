#include "kube/tools/leader_elector.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "base/log.h"
#include "kube/api/meta_time.h"
#include "kube/client/api_error.h"

namespace kube {

base::Result<Lease> ClientLeaseApi::Get(std::string_view ns, std::string_view name) {
  return client_.Get<Lease>(ns, name);
}

base::Result<Lease> ClientLeaseApi::Create(const Lease& lease) { return client_.Create(lease); }

base::Result<Lease> ClientLeaseApi::Update(const Lease& lease) { return client_.Update(lease); }

LeaderElector::LeaderElector(LeaderElectionConfig config, LeaderCallbacks callbacks, LeaseApi& api,
                             base::Clock& clock)
    : config_(std::move(config)),
      callbacks_(std::move(callbacks)),
      api_(api),
      clock_(clock),
      observed_time_(clock.Now()) {}

bool LeaderElector::Run(std::stop_token stop) {
  if (!Acquire(stop)) return false;
  if (callbacks_.on_leading_changed) callbacks_.on_leading_changed(true);

  std::stop_source leading;
  std::jthread leader_thread;
  if (callbacks_.on_started_leading) {
    leader_thread =
        std::jthread([this, token = leading.get_token()] { callbacks_.on_started_leading(token); });
  }
  const bool lost = RenewUntilLost(stop);
  leading.request_stop();
  if (callbacks_.on_leading_changed) callbacks_.on_leading_changed(false);
  if (lost) {
    LOG_INFO("Failed to renew the lease within the renew deadline")
        .With("lease", config_.namespace_ + "/" + config_.name);
    if (callbacks_.on_stopped_leading) callbacks_.on_stopped_leading();
    return true;  // leader_thread is joined on the way out
  }
  if (leader_thread.joinable()) leader_thread.join();
  if (config_.release_on_cancel) Release();
  if (callbacks_.on_stopped_leading) callbacks_.on_stopped_leading();
  return false;
}

bool LeaderElector::Acquire(std::stop_token stop) {
  LOG_INFO("Attempting to acquire leader lease")
      .With("lease", config_.namespace_ + "/" + config_.name);
  while (!stop.stop_requested()) {
    const bool acquired = TryAcquireOrRenew();
    ReportTransition();
    if (acquired) {
      LOG_INFO("Successfully acquired lease")
          .With("lease", config_.namespace_ + "/" + config_.name);
      return true;
    }
    LOG_V(4, "Failed to acquire lease").With("lease", config_.namespace_ + "/" + config_.name);
    if (!clock_.SleepFor(Jittered(config_.retry_period), stop)) break;
  }
  return false;
}

bool LeaderElector::RenewUntilLost(std::stop_token stop) {
  while (!stop.stop_requested()) {
    const base::Clock::TimePoint deadline = clock_.Now() + config_.renew_deadline;
    bool renewed = false;
    while (true) {
      renewed = TryAcquireOrRenew();
      if (renewed) break;
      const base::Clock::TimePoint next = std::min(clock_.Now() + config_.retry_period, deadline);
      if (!clock_.SleepUntil(next, stop)) return false;
      if (clock_.Now() >= deadline) break;
    }
    ReportTransition();
    if (!renewed) return true;
    LOG_V(5, "Successfully renewed lease").With("lease", config_.namespace_ + "/" + config_.name);
    if (!clock_.SleepFor(config_.retry_period, stop)) return false;
  }
  return false;
}

LeaseSpec LeaderElector::NewRecord() const {
  LeaseSpec spec;
  spec.holder_identity = config_.identity;
  spec.lease_duration_seconds = static_cast<int32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count());
  spec.acquire_time = spec.renew_time = FormatMicroTime(clock_.WallNow());
  return spec;
}

bool LeaderElector::TryAcquireOrRenew() {
  LeaseSpec record = NewRecord();

  // Fast path: a leader whose lease is still valid updates optimistically,
  // assuming the copy it last wrote is current.
  bool fast_path = false;
  {
    std::lock_guard lock(mu_);
    const auto duration = std::chrono::seconds(observed_.lease_duration_seconds.value_or(0));
    if (IsLeaderLocked() && lease_ && observed_time_ + duration > clock_.Now()) {
      record.acquire_time = observed_.acquire_time;
      record.lease_transitions = observed_.lease_transitions;
      fast_path = true;
    }
  }
  if (fast_path) {
    if (TryUpdate(record)) return true;
    LOG_V(2, "Failed to update the lease optimistically, falling back to slow path")
        .With("lease", config_.namespace_ + "/" + config_.name);
  }

  base::Result<Lease> current = api_.Get(config_.namespace_, config_.name);
  if (!current.ok()) {
    if (!IsNotFound(current.error())) {
      LOG_ERROR("Error retrieving the leader election lease")
          .With("lease", config_.namespace_ + "/" + config_.name)
          .With("err", current.error().message);
      return false;
    }
    Lease lease;
    lease.metadata.namespace_ = config_.namespace_;
    lease.metadata.name = config_.name;
    lease.metadata.labels = config_.labels;
    lease.spec = record;
    base::Result<Lease> created = api_.Create(lease);
    if (!created.ok()) {
      LOG_ERROR("Error initially creating the leader election lease")
          .With("lease", config_.namespace_ + "/" + config_.name)
          .With("err", created.error().message);
      return false;
    }
    lease_ = std::move(*created);
    SetObserved(record);
    return true;
  }

  lease_ = std::move(*current);
  const LeaseSpec& old = lease_->spec;
  bool leader = false;
  {
    std::lock_guard lock(mu_);
    if (!(old == observed_)) {
      observed_ = old;
      observed_time_ = clock_.Now();
    }
    const auto duration = std::chrono::seconds(old.lease_duration_seconds.value_or(0));
    const bool expired = observed_time_ + duration < clock_.Now();
    leader = IsLeaderLocked();
    if (!old.holder_identity.empty() && !expired && !leader) {
      LOG_V(4, "Lease is held by another holder and has not yet expired")
          .With("holder", old.holder_identity);
      return false;
    }
  }

  if (leader) {
    record.acquire_time = old.acquire_time;
    record.lease_transitions = old.lease_transitions;
    if (callbacks_.on_slow_path) callbacks_.on_slow_path();
  } else {
    record.lease_transitions = old.lease_transitions + 1;
  }
  return TryUpdate(record);
}

bool LeaderElector::TryUpdate(LeaseSpec spec) {
  Lease lease = *lease_;
  lease.spec = spec;
  for (const auto& [key, value] : config_.labels) lease.metadata.labels[key] = value;
  base::Result<Lease> updated = api_.Update(lease);
  if (!updated.ok()) {
    if (IsConflict(updated.error())) {
      LOG_V(4, "Lease changed under us").With("err", updated.error().message);
    } else {
      LOG_ERROR("Failed to update the lease").With("err", updated.error().message);
    }
    return false;
  }
  lease_ = std::move(*updated);
  SetObserved(spec);
  return true;
}

void LeaderElector::Release() {
  // Re-read for a fresh resourceVersion, and so as not to clear a holder that
  // is not us any more.
  base::Result<Lease> current = api_.Get(config_.namespace_, config_.name);
  if (!current.ok()) {
    LOG_ERROR("Failed to read the lease to release it").With("err", current.error().message);
    return;
  }
  if (current->spec.holder_identity != config_.identity) return;
  lease_ = std::move(*current);
  LeaseSpec released;
  released.lease_duration_seconds = 1;
  released.acquire_time = released.renew_time = FormatMicroTime(clock_.WallNow());
  released.lease_transitions = lease_->spec.lease_transitions;
  if (!TryUpdate(released)) {
    LOG_ERROR("Failed to release the lease").With("lease", config_.namespace_ + "/" + config_.name);
    return;
  }
  LOG_INFO("Released the lease").With("lease", config_.namespace_ + "/" + config_.name);
}

void LeaderElector::SetObserved(const LeaseSpec& spec) {
  std::lock_guard lock(mu_);
  observed_ = spec;
  observed_time_ = clock_.Now();
}

void LeaderElector::ReportTransition() {
  std::string holder;
  {
    std::lock_guard lock(mu_);
    holder = observed_.holder_identity;
  }
  if (holder == reported_leader_) return;
  reported_leader_ = holder;
  if (callbacks_.on_new_leader) callbacks_.on_new_leader(holder);
}

bool LeaderElector::IsLeaderLocked() const { return observed_.holder_identity == config_.identity; }

bool LeaderElector::IsLeader() const {
  std::lock_guard lock(mu_);
  return IsLeaderLocked();
}

base::Status LeaderElector::Check() const {
  std::lock_guard lock(mu_);
  if (!IsLeaderLocked()) return {};
  if (clock_.Now() - observed_time_ > config_.lease_duration + config_.health_tolerance) {
    return base::Error(std::string(kCheckFailure));
  }
  return {};
}

base::Clock::Duration LeaderElector::Jittered(base::Clock::Duration d) {
  if (config_.jitter_factor <= 0) return d;
  std::uniform_real_distribution<double> dist(0, config_.jitter_factor);
  return d + std::chrono::duration_cast<base::Clock::Duration>(d * dist(random_));
}

}  // namespace kube
