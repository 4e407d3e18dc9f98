// LeaderElector against an in-memory Lease API and a FakeClock
// (docs/attacher.md §3 and §7 "release the Lease").
#include "kube/tools/leader_elector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "base/clock.h"
#include "kube/client/api_error.h"

namespace kube {
namespace {

using std::chrono::seconds;

// One Lease with resourceVersion checks, plus scripted failures.
class FakeLeaseApi final : public LeaseApi {
 public:
  base::Result<Lease> Get(std::string_view, std::string_view) override {
    std::lock_guard lock(mu_);
    ++calls_;
    if (auto e = Scripted(get_errors_)) return *e;
    if (!lease_) return base::Error::Http(404, "not found");
    return *lease_;
  }
  base::Result<Lease> Create(const Lease& lease) override {
    std::lock_guard lock(mu_);
    ++calls_;
    if (lease_) return base::Error::Http(409, "exists");
    lease_ = lease;
    lease_->metadata.resource_version = std::to_string(++version_);
    return *lease_;
  }
  base::Result<Lease> Update(const Lease& lease) override {
    std::lock_guard lock(mu_);
    ++calls_;
    ++updates_;
    if (auto e = Scripted(update_errors_)) return *e;
    if (!lease_ || lease.metadata.resource_version != lease_->metadata.resource_version) {
      return base::Error::Http(409, "conflict");
    }
    lease_ = lease;
    lease_->metadata.resource_version = std::to_string(++version_);
    return *lease_;
  }

  // Another client writes the lease (bumping resourceVersion).
  void Put(LeaseSpec spec, StringMap labels = {}) {
    std::lock_guard lock(mu_);
    if (!lease_) lease_.emplace();
    lease_->metadata.namespace_ = "ns";
    lease_->metadata.name = "lock";
    lease_->metadata.labels = std::move(labels);
    lease_->spec = std::move(spec);
    lease_->metadata.resource_version = std::to_string(++version_);
  }
  std::optional<Lease> lease() {
    std::lock_guard lock(mu_);
    return lease_;
  }
  int calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  int updates() {
    std::lock_guard lock(mu_);
    return updates_;
  }
  void FailGets(int n, int code) { Script(get_errors_, n, code); }
  void FailUpdates(int n, int code) { Script(update_errors_, n, code); }

 private:
  void Script(std::deque<int>& queue, int n, int code) {
    std::lock_guard lock(mu_);
    for (int i = 0; i < n; ++i) queue.push_back(code);
  }
  static std::optional<base::Error> Scripted(std::deque<int>& queue) {
    if (queue.empty()) return std::nullopt;
    int code = queue.front();
    queue.pop_front();
    return base::Error::Http(code, "scripted failure");
  }

  std::mutex mu_;
  std::optional<Lease> lease_;
  int64_t version_ = 0;
  int calls_ = 0;
  int updates_ = 0;
  std::deque<int> get_errors_;
  std::deque<int> update_errors_;
};

LeaseSpec HeldBy(const std::string& holder, int32_t duration = 15) {
  LeaseSpec spec;
  spec.holder_identity = holder;
  spec.lease_duration_seconds = duration;
  spec.acquire_time = spec.renew_time = "2020-01-01T00:00:00.000000Z";
  spec.lease_transitions = 3;
  return spec;
}

class LeaderElectorTest : public ::testing::Test {
 protected:
  LeaderElectorTest() {
    config_.namespace_ = "ns";
    config_.name = "lock";
    config_.identity = "me";
    config_.jitter_factor = 0;
  }

  void Start() {
    LeaderCallbacks callbacks;
    callbacks.on_started_leading = [this](std::stop_token stop) {
      started_ = true;
      std::mutex mu;
      std::condition_variable_any cv;
      std::unique_lock lock(mu);
      cv.wait(lock, stop, [] { return false; });
      controller_stopped_ = true;
    };
    callbacks.on_stopped_leading = [this] { stopped_leading_ = true; };
    callbacks.on_new_leader = [this](const std::string& id) { new_leader_ = id; };
    callbacks.on_leading_changed = [this](bool leading) { leading_gauge_ = leading; };
    callbacks.on_slow_path = [this] { ++slow_paths_; };
    elector_.emplace(config_, callbacks, api_, clock_);
    thread_ = std::jthread([this](std::stop_token stop) { lost_ = elector_->Run(stop); });
    clock_.AwaitSleepers(1);
  }

  // Moves time by `d`, which must wake the elector for at least one API
  // call, and waits until it sleeps again.
  void Step(base::Clock::Duration d) {
    const int before = api_.calls();
    clock_.Advance(d);
    while (api_.calls() == before) std::this_thread::yield();
    clock_.AwaitSleepers(1);
  }

  void Stop() {
    thread_.request_stop();
    thread_.join();
  }

  FakeLeaseApi api_;
  base::FakeClock clock_;
  LeaderElectionConfig config_;
  std::optional<LeaderElector> elector_;
  std::jthread thread_;
  std::atomic<bool> started_{false};
  std::atomic<bool> controller_stopped_{false};
  std::atomic<bool> stopped_leading_{false};
  std::atomic<bool> leading_gauge_{false};
  std::atomic<bool> lost_{false};
  std::atomic<int> slow_paths_{0};
  std::string new_leader_;  // written on the elector's thread while it runs
};

TEST_F(LeaderElectorTest, CreatesTheLeaseWhenAbsent) {
  config_.labels["app"] = "attacher";
  Start();
  EXPECT_TRUE(elector_->IsLeader());
  std::optional<Lease> lease = api_.lease();
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->spec.holder_identity, "me");
  EXPECT_EQ(lease->spec.lease_duration_seconds, 15);
  EXPECT_EQ(lease->spec.lease_transitions, 0);
  EXPECT_EQ(lease->spec.acquire_time, "2023-11-14T22:13:20.000000Z");
  EXPECT_EQ(lease->spec.renew_time, lease->spec.acquire_time);
  EXPECT_EQ(lease->metadata.labels, (StringMap{{"app", "attacher"}}));
  Stop();
  EXPECT_TRUE(started_);
  EXPECT_TRUE(controller_stopped_);
  EXPECT_TRUE(stopped_leading_);
  EXPECT_FALSE(lost_);
}

TEST_F(LeaderElectorTest, WaitsWhileAnotherHolderIsFreshThenTakesOverByObservedTime) {
  api_.Put(HeldBy("other"));
  Start();
  EXPECT_FALSE(elector_->IsLeader());
  EXPECT_EQ(new_leader_, "other");
  Step(seconds(5));
  Step(seconds(5));
  Step(seconds(5));  // 15 s since observed: not yet "before now"
  EXPECT_FALSE(elector_->IsLeader());
  Step(seconds(5));
  EXPECT_TRUE(elector_->IsLeader());
  std::optional<Lease> lease = api_.lease();
  EXPECT_EQ(lease->spec.holder_identity, "me");
  EXPECT_EQ(lease->spec.lease_transitions, 4);
  EXPECT_EQ(lease->spec.acquire_time, "2023-11-14T22:13:40.000000Z");
  Stop();
}

TEST_F(LeaderElectorTest, ARenewedForeignLeaseRestartsTheObservedClock) {
  api_.Put(HeldBy("other"));
  Start();
  Step(seconds(10));
  LeaseSpec renewed = HeldBy("other");
  renewed.renew_time = "2020-01-01T00:00:10.000000Z";
  api_.Put(renewed);
  Step(seconds(5));  // seen changed at 15 s
  Step(seconds(5));  // 20 s after the first sighting
  EXPECT_FALSE(elector_->IsLeader());
  Step(seconds(10));  // 15 s after the change: not yet expired
  EXPECT_FALSE(elector_->IsLeader());
  Step(seconds(5));
  EXPECT_TRUE(elector_->IsLeader());
  Stop();
}

TEST_F(LeaderElectorTest, AReleasedLeaseIsTakenAtOnce) {
  LeaseSpec released = HeldBy("");
  released.lease_duration_seconds = 1;
  api_.Put(released);
  Start();
  EXPECT_TRUE(elector_->IsLeader());
  EXPECT_EQ(api_.lease()->spec.lease_transitions, 4);
  Stop();
}

TEST_F(LeaderElectorTest, RenewsEveryRetryPeriodKeepingAcquireTime) {
  Start();
  const std::string acquired = api_.lease()->spec.acquire_time;
  Step(seconds(5));
  std::optional<Lease> lease = api_.lease();
  EXPECT_EQ(lease->spec.acquire_time, acquired);
  EXPECT_EQ(lease->spec.renew_time, "2023-11-14T22:13:25.000000Z");
  EXPECT_EQ(lease->spec.lease_transitions, 0);
  EXPECT_EQ(slow_paths_, 0);
  EXPECT_TRUE(elector_->Check().ok());
  Stop();
}

TEST_F(LeaderElectorTest, ConflictOnRenewFallsBackToTheSlowPath) {
  Start();
  api_.FailUpdates(1, 409);
  Step(seconds(5));
  EXPECT_TRUE(elector_->IsLeader());
  EXPECT_EQ(slow_paths_, 1);
  EXPECT_EQ(api_.lease()->spec.renew_time, "2023-11-14T22:13:25.000000Z");
  Stop();
}

TEST_F(LeaderElectorTest, ConflictWhileAcquiringMeansNotThisRound) {
  api_.Put(HeldBy("", 1));
  api_.FailUpdates(1, 409);
  Start();
  EXPECT_FALSE(elector_->IsLeader());
  Step(seconds(5));
  EXPECT_TRUE(elector_->IsLeader());
  Stop();
}

TEST_F(LeaderElectorTest, LosesLeadershipAfterTheRenewDeadline) {
  Start();
  api_.FailUpdates(100, 500);
  api_.FailGets(100, 500);
  Step(seconds(5));            // first failed renewal
  Step(seconds(5));            // second
  clock_.Advance(seconds(5));  // renew deadline (10 s) passed
  thread_.join();
  EXPECT_TRUE(lost_);
  EXPECT_TRUE(stopped_leading_);
  EXPECT_TRUE(controller_stopped_);
  EXPECT_FALSE(leading_gauge_);
}

TEST_F(LeaderElectorTest, ReleaseWritesAnEmptyHolderWithOneSecondDuration) {
  config_.release_on_cancel = true;
  config_.labels["team"] = "storage";
  Start();
  Step(seconds(5));
  Stop();
  std::optional<Lease> lease = api_.lease();
  EXPECT_EQ(lease->spec.holder_identity, "");
  EXPECT_EQ(lease->spec.lease_duration_seconds, 1);
  EXPECT_EQ(lease->spec.lease_transitions, 0);
  EXPECT_EQ(lease->metadata.labels, (StringMap{{"team", "storage"}}));
  EXPECT_FALSE(elector_->IsLeader());
  EXPECT_FALSE(lost_);
}

TEST_F(LeaderElectorTest, ReleaseLeavesAnotherHoldersLeaseAlone) {
  config_.release_on_cancel = true;
  Start();
  api_.Put(HeldBy("other"));
  const int updates = api_.updates();
  Stop();
  EXPECT_EQ(api_.lease()->spec.holder_identity, "other");
  EXPECT_EQ(api_.updates(), updates);
}

TEST_F(LeaderElectorTest, WithoutReleaseOnCancelTheLeaseStaysHeld) {
  Start();
  Stop();
  EXPECT_EQ(api_.lease()->spec.holder_identity, "me");
}

TEST_F(LeaderElectorTest, LabelsAreMergedIntoAnExistingLease) {
  api_.Put(HeldBy("", 1), StringMap{{"keep", "yes"}, {"team", "old"}});
  config_.labels["team"] = "storage";
  Start();
  EXPECT_EQ(api_.lease()->metadata.labels, (StringMap{{"keep", "yes"}, {"team", "storage"}}));
  Stop();
}

TEST_F(LeaderElectorTest, GetErrorsAreRetried) {
  api_.FailGets(1, 500);
  Start();
  EXPECT_FALSE(elector_->IsLeader());
  Step(seconds(5));
  EXPECT_TRUE(elector_->IsLeader());
  Stop();
}

TEST_F(LeaderElectorTest, HealthCheckFailsWhenRenewalIsOverdue) {
  LeaderElector elector(config_, {}, api_, clock_);
  EXPECT_TRUE(elector.Check().ok());  // not leading
  std::jthread run([&](std::stop_token stop) { (void)elector.Run(stop); });
  clock_.AwaitSleepers(1);
  EXPECT_TRUE(elector.Check().ok());
  run.request_stop();
  run.join();
  clock_.Advance(seconds(35));
  EXPECT_TRUE(elector.Check().ok());  // exactly lease + 20 s
  clock_.Advance(seconds(1));
  base::Status status = elector.Check();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "failed election to renew leadership on lease ");
}

}  // namespace
}  // namespace kube
