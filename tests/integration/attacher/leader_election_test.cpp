// Two of our attachers contend for one driver's Lease (docs/attacher.md §3, and §7
// "release the Lease on SIGTERM"): exactly one attaches; SIGTERM hands over at
// once; SIGKILL hands over once the Lease expires.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "attacher/names.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/names.h"
#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace attacher_it {
namespace {

using testsupport::HttpGet;
using Clock = std::chrono::steady_clock;
using std::chrono::seconds;

constexpr auto kLeaseDuration = seconds(4);

// Polls a Lease every 20 ms on a thread of its own and records each holder
// change, so a test can show leadership only ever moved forward: every
// identity holds it in one unbroken run, in the expected order, never
// flip-flopping between two live contenders.
class HolderHistory {
 public:
  HolderHistory(kube::Client& admin, std::string name)
      : thread_([&admin, name = std::move(name), this](std::stop_token stop) {
          while (!stop.stop_requested()) {
            auto lease = admin.Get<kube::Lease>("default", name);
            if (lease.ok()) Record(lease->spec.holder_identity);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
        }) {}

  // The holders seen, in order, consecutive repeats and releases ("") left out.
  std::vector<std::string> Holders() {
    std::lock_guard lock(mu_);
    return holders_;
  }

 private:
  void Record(const std::string& holder) {
    std::lock_guard lock(mu_);
    if (!holder.empty() && (holders_.empty() || holders_.back() != holder)) {
      holders_.push_back(holder);
    }
  }

  std::mutex mu_;
  std::vector<std::string> holders_;  // guarded by mu_
  std::jthread thread_;               // last: stops before the members it uses go
};

class LeaderElectionTest : public AttacherTest {
 protected:
  // An attacher with --leader-election and its own identity (the
  // CSI_ATTACHER_LEADER_IDENTITY test hook: both run on one host).
  std::unique_ptr<testsupport::Process> StartContender(const std::string& identity,
                                                       std::vector<std::string> extra_args = {}) {
    std::vector<std::string> argv = {ATTACHER_BIN,
                                     "--kubeconfig=" + plane_->attacher_kubeconfig(),
                                     "--csi-address=" + socket(),
                                     "--timeout=5s",
                                     "--kube-api-qps=100",
                                     "--kube-api-burst=200",
                                     "--leader-election",
                                     "--leader-election-namespace=default",
                                     "--leader-election-lease-duration=4s",
                                     "--leader-election-renew-deadline=3s",
                                     "--leader-election-retry-period=1s",
                                     "--leader-election-labels=team:storage",
                                     "-v=5"};
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    auto p =
        testsupport::Process::Spawn({.argv = argv,
                                     .env = {{"CSI_ATTACHER_TERMINATION_LOG", termination_log()},
                                             {"CSI_ATTACHER_LEADER_IDENTITY", identity}},
                                     .log_file = work_dir() + "/attacher-" + identity + ".log"});
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p.ok() ? std::move(p).value() : nullptr;
  }

  std::optional<kube::Lease> GetLease() {
    auto lease = admin_->Get<kube::Lease>("default", attacher::LeaseNameFor(driver_name_));
    if (!lease.ok()) return std::nullopt;
    return *lease;
  }

  // Polls until the Lease's holder is `holder`; returns how long that took.
  std::optional<Clock::duration> AwaitHolder(const std::string& holder,
                                             seconds timeout = seconds(30)) {
    const auto start = Clock::now();
    while (Clock::now() - start < timeout) {
      auto lease = GetLease();
      if (lease && lease->spec.holder_identity == holder) return Clock::now() - start;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return std::nullopt;
  }

  // A driver, a node and a PV; `a` leads and, with `standby`, `b` waits.
  void StartPair(const std::string& driver, bool standby = true) {
    base::Result<int> port = testsupport::PickFreeLoopbackPort();
    ASSERT_TRUE(port.ok()) << port.error().message;
    a_port_ = *port;
    driver_name_ = driver;
    StartMockDriver(driver, 1);
    CreateCsiNode("node-" + driver, driver, driver);
    CreatePv(CsiPv("pv-" + driver, driver, "4"));
    history_ = std::make_unique<HolderHistory>(*admin_, attacher::LeaseNameFor(driver));
    a_ = StartContender("attacher-a", {"--http-endpoint=127.0.0.1:" + std::to_string(a_port_)});
    ASSERT_TRUE(AwaitHolder("attacher-a")) << "a never became leader";
    if (standby) b_ = StartContender("attacher-b");
  }

  // The upstream Go attacher as a contender; its identity is the hostname.
  std::unique_ptr<testsupport::Process> StartUpstream(const std::string& binary) {
    std::vector<std::string> argv = {binary,
                                     "--kubeconfig=" + plane_->attacher_kubeconfig(),
                                     "--csi-address=" + socket(),
                                     "--timeout=5s",
                                     "--leader-election",
                                     "--leader-election-namespace=default",
                                     "--leader-election-lease-duration=4s",
                                     "--leader-election-renew-deadline=3s",
                                     "--leader-election-retry-period=1s",
                                     "-v=5"};
    auto p = testsupport::Process::Spawn({.argv = argv, .log_file = work_dir() + "/upstream.log"});
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p.ok() ? std::move(p).value() : nullptr;
  }

  static std::string HostIdentity() {
    char host[HOST_NAME_MAX + 1] = {};
    gethostname(host, sizeof(host) - 1);
    return kube::SanitizeName(host);
  }

  std::string driver_name_;
  int a_port_ = 0;  // a's --http-endpoint
  std::unique_ptr<testsupport::Process> a_;
  std::unique_ptr<testsupport::Process> b_;
  std::unique_ptr<HolderHistory> history_;
};

TEST_F(LeaderElectionTest, OnlyTheLeaderAttachesAndSigtermHandsOverAtOnce) {
  StartPair("le-term.csi.example.com");
  std::this_thread::sleep_for(seconds(3));  // b has tried several times by now
  auto lease = GetLease();
  ASSERT_TRUE(lease);
  EXPECT_EQ(lease->spec.holder_identity, "attacher-a");
  EXPECT_EQ(lease->spec.lease_duration_seconds, 4);
  EXPECT_EQ(lease->metadata.labels.find("team")->second, "storage");
  EXPECT_EQ(b_->LogTail(1000).find("Starting CSI attacher"), std::string::npos)
      << "the standby started its controller";

  std::string health = HttpGet(a_port_, "/healthz/leader-election");
  EXPECT_EQ(health.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << health;
  EXPECT_EQ(health.substr(health.find("\r\n\r\n") + 4), "ok");
  EXPECT_NE(HttpGet(a_port_, "/metrics").find("leader_election_master_status{name=\"\"} 1\n"),
            std::string::npos);

  CreateVa("va-le-term", driver_name_, "pv-" + driver_name_, "node-" + driver_name_);
  ASSERT_TRUE(AwaitVa("va-le-term", Attached)) << "the leader did not attach";

  a_->Stop(std::chrono::milliseconds(20000));
  EXPECT_EQ(a_->exit_status(), 0) << a_->LogTail(20);
  auto after = GetLease();
  ASSERT_TRUE(after);
  EXPECT_NE(after->spec.holder_identity, "attacher-a") << "the lease was not released";
  auto took = AwaitHolder("attacher-b");
  ASSERT_TRUE(took) << "the standby never took over";
  EXPECT_LT(*took, kLeaseDuration) << "hand-over waited for the lease to expire";
  EXPECT_EQ(GetLease()->spec.lease_transitions, 1);

  // The new leader serves the driver: it detaches.
  ASSERT_TRUE(admin_->Delete<kube::VolumeAttachment>("", "va-le-term").ok());
  EXPECT_TRUE(AwaitVaGone("va-le-term")) << "the new leader did not detach";
  b_->Stop(std::chrono::milliseconds(20000));
  EXPECT_EQ(b_->exit_status(), 0) << b_->LogTail(20);
  EXPECT_EQ(GetLease()->spec.holder_identity, "");
  EXPECT_EQ(GetLease()->spec.lease_duration_seconds, 1);
  EXPECT_EQ(history_->Holders(), (std::vector<std::string>{"attacher-a", "attacher-b"}));
}

TEST_F(LeaderElectionTest, SigkillHandsOverOnceTheLeaseExpires) {
  StartPair("le-kill.csi.example.com");
  std::this_thread::sleep_for(seconds(2));
  a_->Kill();
  auto took = AwaitHolder("attacher-b");
  ASSERT_TRUE(took) << "the standby never took over";
  // b saw a's last renewal at most ~2 retry periods before the kill, so it
  // must wait out most of the 4 s lease.
  EXPECT_GT(*took, seconds(1)) << "took over a lease that had not expired";

  CreateVa("va-le-kill", driver_name_, "pv-" + driver_name_, "node-" + driver_name_);
  EXPECT_TRUE(AwaitVa("va-le-kill", Attached)) << "the new leader did not attach";
  EXPECT_EQ(history_->Holders(), (std::vector<std::string>{"attacher-a", "attacher-b"}));
}

TEST_F(LeaderElectionTest, HandsOverToAndFromTheUpstreamAttacher) {
  const char* upstream = std::getenv("UPSTREAM_ATTACHER_BIN");
  if (upstream == nullptr || *upstream == '\0') {
    FAIL() << "UPSTREAM_ATTACHER_BIN not set: run tools/peers/build.sh and export what it prints";
  }
  StartPair("le-upstream.csi.example.com", /*standby=*/false);
  auto u = StartUpstream(upstream);
  ASSERT_TRUE(u);
  std::this_thread::sleep_for(seconds(3));
  EXPECT_EQ(GetLease()->spec.holder_identity, "attacher-a") << "upstream took a held lease";

  // Ours releases; upstream takes the released Lease without waiting.
  a_->Stop(std::chrono::milliseconds(20000));
  EXPECT_EQ(a_->exit_status(), 0) << a_->LogTail(20);
  auto took = AwaitHolder(HostIdentity());
  ASSERT_TRUE(took) << "upstream never took over\n" << u->LogTail(30);
  EXPECT_LT(*took, kLeaseDuration);
  CreateVa("va-le-upstream", driver_name_, "pv-" + driver_name_, "node-" + driver_name_);
  ASSERT_TRUE(AwaitVa("va-le-upstream", Attached)) << "upstream did not attach";

  // Upstream dies without releasing; ours takes the Lease once it expires.
  u->Kill();
  b_ = StartContender("attacher-b");
  ASSERT_TRUE(AwaitHolder("attacher-b")) << "ours never took over from upstream";
  ASSERT_TRUE(admin_->Delete<kube::VolumeAttachment>("", "va-le-upstream").ok());
  EXPECT_TRUE(AwaitVaGone("va-le-upstream")) << "ours did not detach after taking over";
  b_->Stop(std::chrono::milliseconds(20000));
  EXPECT_EQ(b_->exit_status(), 0) << b_->LogTail(20);
  EXPECT_EQ(history_->Holders(),
            (std::vector<std::string>{"attacher-a", HostIdentity(), "attacher-b"}));
}

// Issue: a rolling restart during an attach storm loses nothing. The leader
// is stopped while publishes (300 ms each) are in flight: it finishes them,
// releases the Lease, and the standby attaches the rest at once.
TEST_F(LeaderElectionTest, RollingRestartDuringAttachStormLosesNothing) {
  driver_name_ = "le-storm.csi.example.com";
  constexpr int kVolumes = 30;
  StartFaultDriver(driver_name_, "storm-node-id", {"--publish-latency=300ms"});
  CreateCsiNode("node-storm", driver_name_, "storm-node-id");
  for (int i = 0; i < kVolumes; ++i) {
    CreatePv(
        CsiPv("pv-storm-" + std::to_string(i), driver_name_, "vol-storm-" + std::to_string(i)));
  }
  history_ = std::make_unique<HolderHistory>(*admin_, attacher::LeaseNameFor(driver_name_));
  a_ = StartContender("attacher-a", {"--worker-threads=4"});
  ASSERT_TRUE(AwaitHolder("attacher-a")) << "a never became leader";
  b_ = StartContender("attacher-b", {"--worker-threads=4"});

  for (int i = 0; i < kVolumes; ++i) {
    const std::string n = std::to_string(i);
    CreateVa("va-storm-" + n, driver_name_, "pv-storm-" + n, "node-storm");
  }
  ASSERT_TRUE(AwaitCounter("vol-storm-0", "publish_calls", 1)) << "a never started publishing";
  a_->Stop(std::chrono::milliseconds(20000));
  EXPECT_EQ(a_->exit_status(), 0) << a_->LogTail(20);
  auto took = AwaitHolder("attacher-b");
  ASSERT_TRUE(took) << "the standby never took over";
  EXPECT_LT(*took, kLeaseDuration) << "hand-over waited for the lease to expire";

  for (int i = 0; i < kVolumes; ++i) {
    const std::string n = std::to_string(i);
    auto va = AwaitVa("va-storm-" + n, Attached);
    ASSERT_TRUE(va && va->status.attached) << "va-storm-" << n << " lost in the hand-over";
    EXPECT_FALSE(va->status.attach_error.has_value()) << "va-storm-" << n;
    EXPECT_EQ(VolumeCounter("vol-storm-" + n, "attaches"), 1) << "vol-storm-" << n;
  }
  // a logs each publish request at -v=5: it did part of the storm, b the rest.
  int touched_by_a = 0;
  const std::string a_log = a_->LogTail(100000);
  for (int i = 0; i < kVolumes; ++i) {
    touched_by_a +=
        std::regex_search(a_log, std::regex("vol-storm-" + std::to_string(i) + "[^0-9]"));
  }
  EXPECT_GT(touched_by_a, 0) << "the leader was stopped before it did any work";
  EXPECT_LT(touched_by_a, kVolumes) << "the storm was over before the restart";
  EXPECT_EQ(history_->Holders(), (std::vector<std::string>{"attacher-a", "attacher-b"}));
}

}  // namespace
}  // namespace attacher_it
