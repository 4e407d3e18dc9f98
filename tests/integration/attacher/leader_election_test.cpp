// Two of our attachers contend for one driver's Lease (BEHAVIOR.md §3, and §7
// "release the Lease on SIGTERM"): exactly one attaches; SIGTERM hands over at
// once; SIGKILL hands over once the Lease expires.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "attacher/names.h"
#include "kube/lease.h"
#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/support/free_port.h"

namespace attacher_it {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::seconds;

constexpr auto kLeaseDuration = seconds(4);

// GET `path` from 127.0.0.1:`port`; the raw response, or "" if nobody listens.
// (Same as metrics_test.cpp's; worth moving to tests/support.)
std::string HttpGet(int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char buf[8192];
    for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) response.append(buf, n);
  }
  close(fd);
  return response;
}

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
    return attacher::SanitizeName(host);
  }

  static bool Attached(const kube::VolumeAttachment& va) { return va.status.attached; }

  std::string driver_name_;
  int a_port_ = 0;  // a's --http-endpoint
  std::unique_ptr<testsupport::Process> a_;
  std::unique_ptr<testsupport::Process> b_;
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
}

TEST_F(LeaderElectionTest, HandsOverToAndFromTheUpstreamAttacher) {
  const char* upstream = std::getenv("UPSTREAM_ATTACHER_BIN");
  if (upstream == nullptr || *upstream == '\0') {
    GTEST_SKIP() << "UPSTREAM_ATTACHER_BIN not set (tools/peers/build.sh upstream)";
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
}

}  // namespace
}  // namespace attacher_it
