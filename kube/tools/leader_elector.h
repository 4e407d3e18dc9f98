// LeaderElector: client-go's leader election on a coordination.k8s.io/v1
// Lease, with the same record semantics so that our sidecar and upstream's can
// contend for the same Lease.
//
// Run() tries to acquire the Lease every retry_period (plus up to
// jitter_factor x retry_period of random jitter). The Lease is acquired when
// it is absent (created), already ours, released (empty holder), or expired
// by the *observed* time: the local monotonic time at which this elector last
// saw the record change, plus leaseDurationSeconds. The timestamps inside the
// record are written for humans and other tools but never trusted, so clock
// skew between nodes does not matter. Writes are PUTs guarded by the
// resourceVersion last read or written; a 409 means "not this round".
//
// While leading, the Lease is renewed every retry_period; if no renewal
// succeeds within renew_deadline, leadership is lost.
//
// Thread-safety: Run() is called once, from one thread. IsLeader() and
// Check() may be called from any thread.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/string_map.h"
#include "kube/client/client.h"

namespace kube {

// The three Lease calls leader election makes; errors are kube::Client's,
// classified by api_error.h.
class LeaseApi {
 public:
  virtual ~LeaseApi() = default;
  virtual base::Result<Lease> Get(std::string_view ns, std::string_view name) = 0;
  virtual base::Result<Lease> Create(const Lease& lease) = 0;
  // PUT, guarded by lease.metadata.resource_version.
  virtual base::Result<Lease> Update(const Lease& lease) = 0;
};

// LeaseApi on a kube::Client. Thread-safe as the Client is.
class ClientLeaseApi final : public LeaseApi {
 public:
  explicit ClientLeaseApi(Client& client) : client_(client) {}
  base::Result<Lease> Get(std::string_view ns, std::string_view name) override;
  base::Result<Lease> Create(const Lease& lease) override;
  base::Result<Lease> Update(const Lease& lease) override;

 private:
  Client& client_;
};

struct LeaderElectionConfig {
  std::string namespace_;
  std::string name;
  std::string identity;  // written as holderIdentity; must not be empty
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(5);
  // Set on create and merged into the Lease's labels on every update.
  StringMap labels;
  // On stop while leading: after on_started_leading has returned, write the
  // Lease with an empty holder and leaseDurationSeconds 1 so a standby takes
  // over at once.
  bool release_on_cancel = false;
  // client-go's wait.JitterUntil factor for acquire attempts; tests use 0.
  double jitter_factor = 1.2;
  // Check() fails once the last renewal is older than lease_duration plus
  // this (csi-lib-utils' healthz adaptor uses 20 s).
  std::chrono::nanoseconds health_tolerance = std::chrono::seconds(20);
};

struct LeaderCallbacks {
  // Runs on a thread of its own once the Lease is acquired; the token is
  // requested when leadership ends (lost or Run stopped). Run waits for it to
  // return before releasing the Lease and returning.
  std::function<void(std::stop_token)> on_started_leading;
  // Called once when leadership ends, if it was ever held. On loss: at once,
  // before on_started_leading has returned (the caller may end the process).
  // On stop: after on_started_leading returned and the Lease was released.
  std::function<void()> on_stopped_leading;
  // Called on Run's thread whenever the observed holder changes (also to
  // ourselves, or to "" on release). Must not block.
  std::function<void(const std::string& identity)> on_new_leader;
  // Metrics hooks (optional): leadership gained/ended, and each renewal that
  // needed a GET because the optimistic update failed (client-go's
  // leader_election_slowpath_total).
  std::function<void(bool leading)> on_leading_changed;
  std::function<void()> on_slow_path;
};

class LeaderElector {
 public:
  // The message of a failing Check(). Upstream's lock name is empty there, so
  // the trailing space is part of the contract (docs/attacher.md §3).
  static constexpr std::string_view kCheckFailure = "failed election to renew leadership on lease ";

  // `api` and `clock` must outlive the elector.
  LeaderElector(LeaderElectionConfig config, LeaderCallbacks callbacks, LeaseApi& api,
                base::Clock& clock);

  // Blocks until `stop` is requested or leadership is lost. Returns true if
  // leadership was lost, false if stopped.
  bool Run(std::stop_token stop);

  // Whether the last observed record names us as holder.
  bool IsLeader() const;
  // Ok unless leading and the last successful renewal is older than
  // lease_duration + health_tolerance.
  base::Status Check() const;

 private:
  bool Acquire(std::stop_token stop);
  // Renews until stop (returns false) or a renewal deadline passes (true).
  bool RenewUntilLost(std::stop_token stop);
  bool TryAcquireOrRenew();
  bool TryUpdate(LeaseSpec spec);
  void Release();
  void SetObserved(const LeaseSpec& spec);
  void ReportTransition();
  bool IsLeaderLocked() const;
  LeaseSpec NewRecord() const;
  base::Clock::Duration Jittered(base::Clock::Duration d);

  const LeaderElectionConfig config_;
  const LeaderCallbacks callbacks_;
  LeaseApi& api_;
  base::Clock& clock_;

  // Only Run's thread touches these.
  std::optional<Lease> lease_;  // last read or written, for resourceVersion
  std::string reported_leader_;
  std::mt19937_64 random_{std::random_device{}()};

  mutable std::mutex mu_;
  LeaseSpec observed_;                    // guarded by mu_
  base::Clock::TimePoint observed_time_;  // guarded by mu_
};

}  // namespace kube
