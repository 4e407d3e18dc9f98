// Our resizer and upstream's contend for one Lease,
// external-resizer-<driver sanitized> (docs/resizer.md §2.3 step 9), both
// ways round: the first holds it and expands, the second waits; once the
// first is killed, the second takes the Lease when it expires and expands.
#include <gtest/gtest.h>

#include "kube/api/coordination/v1/lease.h"
#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/cluster_polls.h"

namespace resizer_it {
namespace {

using nlohmann::json;

// Ours is named by its test hook (both run on one host); upstream's identity
// is the hostname.
constexpr char kOursIdentity[] = "ours";

// The parameter is the resizer that holds the Lease first.
class LeaderElectionTest : public ResizerTest {
 protected:
  testsupport::Process* StartContender(const ResizerUnderTest& resizer) {
    return StartResizerOf(
        resizer,
        {"--leader-election", "--leader-election-namespace=default",
         "--leader-election-lease-duration=4s", "--leader-election-renew-deadline=3s",
         "--leader-election-retry-period=1s"},
        {{"CSI_RESIZER_LEADER_IDENTITY", kOursIdentity}}, resizer.name);
  }
  std::string Holder(const std::string& lease) const {
    auto got = admin_->Get<kube::Lease>("default", lease);
    return got.ok() ? got->spec.holder_identity : "";
  }
  static bool IsHolder(const ResizerUnderTest& resizer, const std::string& holder) {
    return resizer.name == "Ours" ? holder == kOursIdentity
                                  : !holder.empty() && holder != kOursIdentity;
  }
  bool Grows(const std::string& claim, const std::string& size) {
    if (!RequestSize(claim, size).ok()) return false;
    json done = AwaitClaim(
        claim, [&](const json& c) { return StatusString(c, "/status/capacity/storage") == size; });
    return StatusString(done, "/status/capacity/storage") == size;
  }
};

TEST_P(LeaderElectionTest, SecondTakesOverTheLeaseAndExpandsWhenTheFirstDies) {
  const ResizerUnderTest first = GetParam();
  const ResizerUnderTest second = first.name == "Ours" ? UpstreamResizer() : OurResizer();
  const std::string driver = DriverFor("lease");
  // Sanitized as upstream does: '.' becomes '-'.
  std::string lease = "external-resizer-" + driver;
  std::ranges::replace(lease, '.', '-');
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  const std::string volume = CreateDriverVolume(Own("lease"), int64_t{1} << 30);
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(Own("lease"), driver));
  ASSERT_TRUE(CreateBoundClaim({.name = Own("lease"),
                                .storage_class = Own("lease"),
                                .driver = driver,
                                .volume_handle = volume})
                  .is_object());

  testsupport::Process* leader = StartContender(first);
  ASSERT_NE(leader, nullptr);
  ASSERT_TRUE(testsupport::PollUntil([&] { return IsHolder(first, Holder(lease)); }, kResizeAwait))
      << "holder: " << Holder(lease);
  ASSERT_NE(StartContender(second), nullptr);
  EXPECT_TRUE(Grows(Own("lease"), "2Gi")) << "the leader did not expand";
  EXPECT_TRUE(IsHolder(first, Holder(lease))) << "holder: " << Holder(lease);

  leader->Kill();
  ASSERT_TRUE(testsupport::PollUntil([&] { return IsHolder(second, Holder(lease)); }, kResizeAwait))
      << "holder: " << Holder(lease);
  EXPECT_TRUE(Grows(Own("lease"), "3Gi")) << "the new leader did not expand";
}

INSTANTIATE_RESIZER_PAIRS(LeaderElectionTest);

}  // namespace
}  // namespace resizer_it
