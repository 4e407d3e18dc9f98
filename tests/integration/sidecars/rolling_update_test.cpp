// A rolling update between upstream's four separate sidecars and one
// csi-sidecars (docs/csi-sidecars.md §4): the four hold their Leases;
// csi-sidecars starts as the standby of all four, takes each Lease once its
// holder stops, and provisions; then upstream's four start as standbys and
// take the Leases back once csi-sidecars stops. Throughout, every process's
// own view (leader_election_master_status on its /metrics) is sampled: no
// controller may have two processes leading it at once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "tests/integration/sidecars/sidecars_fixture.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace sidecars_it {
namespace {

using namespace std::chrono_literals;

const std::vector<std::string> kShortLeases = {
    "--leader-election", "--leader-election-namespace=default",
    "--leader-election-lease-duration=4s", "--leader-election-renew-deadline=3s",
    "--leader-election-retry-period=1s"};

// One upstream sidecar: its peer, and the Lease it competes for.
struct Separate {
  std::string variable;  // UPSTREAM_<NAME>_BIN
  std::string peer;      // tools/peers/build.sh's name for it
  std::string lease;
  int port = 0;
  testsupport::Process* process = nullptr;
};

// Whether the process serving /metrics on `port` believes it leads `lease`
// ("" for upstream's single series); false when it does not answer.
bool Leads(int port, const std::string& lease) {
  const std::string body = testsupport::HttpBody(testsupport::HttpGet(port, "/metrics"));
  std::vector<std::string> labels;
  if (!lease.empty()) labels.push_back("name=\"" + lease + "\"");
  return testsupport::SeriesValue(body, "leader_election_master_status", labels) == 1;
}

class RollingUpdateTest : public CsiSidecarsTest {
 protected:
  void StartSeparate(std::vector<Separate>& separate, const std::string& round) {
    for (Separate& s : separate) {
      std::vector<std::string> args = kShortLeases;
      args.push_back("--http-endpoint=127.0.0.1:" + std::to_string(s.port));
      s.process = StartUpstream(s.variable, s.peer, args, s.peer + "-" + round);
      ASSERT_NE(s.process, nullptr);
    }
  }

  // Samples every process's view until Stop(); records a moment where both
  // kinds lead one controller.
  class Sampler {
   public:
    Sampler(const std::vector<Separate>& separate, int sidecars_port)
        : thread_([this, &separate, sidecars_port](std::stop_token stop) {
            while (!stop.stop_requested()) {
              for (const Separate& s : separate) {
                // Ours first: a handover from upstream to ours can then not
                // look like an overlap between the two scrapes, only a real
                // overlap can.
                const bool ours = Leads(sidecars_port, s.lease);
                const bool theirs = Leads(s.port, "");
                if (ours && theirs) {
                  std::lock_guard lock(mu_);
                  overlaps_.push_back(s.lease);
                }
              }
              std::this_thread::sleep_for(200ms);
            }
          }) {}
    std::vector<std::string> Stop() {
      thread_.request_stop();
      thread_.join();
      std::lock_guard lock(mu_);
      return overlaps_;
    }

   private:
    std::mutex mu_;
    std::vector<std::string> overlaps_;
    std::jthread thread_;
  };
};

TEST_F(RollingUpdateTest, FromTheFourSidecarsToCsiSidecarsAndBackNeverWithTwoLeaders) {
  const std::string driver = "rolling.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriver(driver, {"--capabilities=PUBLISH_UNPUBLISH_VOLUME,EXPAND_VOLUME"}));
  const DriverLeases leases = LeasesOf(driver);
  std::vector<Separate> separate = {
      {"UPSTREAM_ATTACHER_BIN", "attacher", leases.attacher},
      {"UPSTREAM_PROVISIONER_BIN", "provisioner", leases.provisioner},
      {"UPSTREAM_RESIZER_BIN", "resizer", leases.resizer},
      {"UPSTREAM_SNAPSHOTTER_BIN", "snapshotter", leases.snapshotter}};
  for (Separate& s : separate) {
    base::Result<int> port = testsupport::PickFreeLoopbackPort();
    ASSERT_TRUE(port.ok()) << port.error().message;
    s.port = *port;
  }
  base::Result<int> sidecars_port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(sidecars_port.ok()) << sidecars_port.error().message;

  // The separate sidecars lead.
  ASSERT_NO_FATAL_FAILURE(StartSeparate(separate, "before"));
  for (const Separate& s : separate) {
    ASSERT_TRUE(testsupport::PollUntil([&] { return Leads(s.port, ""); }, 60s))
        << s.peer << " never led:\n"
        << s.process->LogTail(30);
  }
  Sampler sampler(separate, *sidecars_port);

  // csi-sidecars joins as the standby of all four.
  std::vector<std::string> args = kShortLeases;
  args.insert(args.end(), {"--controllers=attacher,provisioner,resizer,snapshotter",
                           "--http-endpoint=127.0.0.1:" + std::to_string(*sidecars_port)});
  testsupport::Process* sidecars = StartCsiSidecars(args);
  ASSERT_NE(sidecars, nullptr);
  ASSERT_TRUE(testsupport::PollUntil(
      [&] {
        return testsupport::HttpGet(*sidecars_port, "/metrics").find(" 200 ") != std::string::npos;
      },
      60s))
      << LogOf(*sidecars);
  std::this_thread::sleep_for(3s);  // several retry periods as a standby
  for (const Separate& s : separate) {
    EXPECT_FALSE(Leads(*sidecars_port, s.lease)) << s.lease << " taken from a live holder";
    EXPECT_NE(HolderOf(s.lease), "csi-sidecars");
  }

  // The old Pod goes: csi-sidecars takes every Lease, and works.
  for (Separate& s : separate) s.process->Stop();
  for (const Separate& s : separate) {
    EXPECT_TRUE(testsupport::PollUntil([&] { return Leads(*sidecars_port, s.lease); }, 60s))
        << s.lease << " not taken over:\n"
        << LogOf(*sidecars);
    EXPECT_EQ(HolderOf(s.lease), "csi-sidecars");
  }
  CreateClassAndClaim("rolling", driver);
  EXPECT_TRUE(ClaimBound("rolling")) << LogOf(*sidecars);

  // And back: the separate sidecars as standbys, then csi-sidecars goes.
  ASSERT_NO_FATAL_FAILURE(StartSeparate(separate, "after"));
  std::this_thread::sleep_for(3s);
  for (const Separate& s : separate) {
    EXPECT_FALSE(Leads(s.port, "")) << s.peer << " took a Lease from a live csi-sidecars";
  }
  sidecars->Stop();
  for (const Separate& s : separate) {
    EXPECT_TRUE(testsupport::PollUntil([&] { return Leads(s.port, ""); }, 60s))
        << s.peer << " did not take its Lease back:\n"
        << s.process->LogTail(30);
    EXPECT_NE(HolderOf(s.lease), "csi-sidecars");
  }

  const std::vector<std::string> overlaps = sampler.Stop();
  EXPECT_TRUE(overlaps.empty()) << "two leaders at once for " << overlaps.front();
}

}  // namespace
}  // namespace sidecars_it
