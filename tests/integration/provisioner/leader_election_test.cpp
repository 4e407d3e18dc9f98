// Our provisioner and upstream's contend for one Lease, named after the
// driver itself (docs/provisioner.md §6: every character outside
// [A-Za-z0-9-] becomes '-'), both ways round: the first holds it and
// provisions, the second waits without calling the driver; once the first
// is killed, the second takes the Lease when it expires and provisions.
#include <gtest/gtest.h>

#include "kube/api/coordination/v1/lease.h"
#include "tests/integration/provisioner/provisioner_fixture.h"

namespace provisioner_it {
namespace {

// Ours is named by its test hook (both run on one host); upstream's identity
// is the hostname.
constexpr char kOurIdentity[] = "ours";
constexpr char kOurIdentityVariable[] = "CSI_PROVISIONER_LEADER_IDENTITY";

class LeaderElectionTest : public ProvisionerTest {
 protected:
  struct Contender {
    ProvisionerUnderTest provisioner;
    std::string identity;
  };
  static Contender Ours() { return {OurProvisioner(), kOurIdentity}; }
  static Contender Upstream() { return {UpstreamProvisioner(), HostName()}; }

  // A provisioner with --leader-election and a short Lease.
  testsupport::Process* StartContender(const Contender& contender) {
    return StartProvisionerOf(
        contender.provisioner,
        {"--leader-election", "--leader-election-namespace=default",
         "--leader-election-lease-duration=4s", "--leader-election-renew-deadline=3s",
         "--leader-election-retry-period=1s"},
        {{kOurIdentityVariable, kOurIdentity}}, contender.provisioner.name);
  }

  std::string Holder() const {
    auto lease = admin_->Get<kube::Lease>("default", lease_name_);
    return lease.ok() ? lease->spec.holder_identity : "";
  }

  // A claim of the class, bound to its provisioned PV.
  void Provision(const std::string& claim) {
    ASSERT_TRUE(CreateClaim({.name = claim, .storage_class = storage_class_}).is_object());
    EXPECT_EQ(PhaseOf(AwaitBound("default", claim)), "Bound") << claim << " was not provisioned";
  }

  // How often a provisioner logged a CreateVolume call.
  static int CreateCallsLogged(const testsupport::Process& provisioner) {
    const std::string log = LogOf(provisioner);
    const std::string needle = "/csi.v1.Controller/CreateVolume";
    int count = 0;
    for (auto pos = log.find(needle); pos != std::string::npos; pos = log.find(needle, pos + 1)) {
      ++count;
    }
    return count;
  }

  // Driver <base>.csi.example.com, whose Lease is `lease_name`.
  void FirstLeadsThenSecondTakesOver(const Contender& first, const Contender& second,
                                     const std::string& base, const std::string& lease_name) {
    ASSERT_NE(first.identity, second.identity);
    const std::string driver = base + ".csi.example.com";
    lease_name_ = lease_name;
    storage_class_ = base;
    ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
    ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = base, .provisioner = driver}));

    testsupport::Process* leader = StartContender(first);
    ASSERT_NE(leader, nullptr);
    ASSERT_TRUE(Eventually([&] { return Holder() == first.identity; }))
        << first.provisioner.name << " never held Lease " << lease_name_ << " (holder \""
        << Holder() << "\")";
    testsupport::Process* standby = StartContender(second);
    ASSERT_NE(standby, nullptr);
    ASSERT_NO_FATAL_FAILURE(Provision(base + "-first"));
    EXPECT_EQ(Holder(), first.identity);
    EXPECT_GE(CreateCallsLogged(*leader), 1) << "the leader did not provision";
    EXPECT_EQ(CreateCallsLogged(*standby), 0) << "the standby called the driver";
    EXPECT_TRUE(standby->IsRunning());

    leader->Kill();
    ASSERT_TRUE(Eventually([&] { return Holder() == second.identity; }))
        << second.provisioner.name << " never took over (holder \"" << Holder() << "\")";
    ASSERT_NO_FATAL_FAILURE(Provision(base + "-second"));
    EXPECT_GE(CreateCallsLogged(*standby), 1) << "the new leader did not provision";
    EXPECT_TRUE(standby->IsRunning());
  }

  std::string lease_name_;
  std::string storage_class_;
};

TEST_F(LeaderElectionTest, UpstreamLeadsOursWaitsThenTakesOverWhenUpstreamIsKilled) {
  FirstLeadsThenSecondTakesOver(Upstream(), Ours(), "le-upstream-first",
                                "le-upstream-first-csi-example-com");
}

TEST_F(LeaderElectionTest, OursLeadsUpstreamWaitsThenTakesOverWhenOursIsKilled) {
  FirstLeadsThenSecondTakesOver(Ours(), Upstream(), "le-ours-first",
                                "le-ours-first-csi-example-com");
}

}  // namespace
}  // namespace provisioner_it
