// docs/provisioner.md §3.12: ClaimController in node deployment, on node-a
// (NodeGetInfo: zone z1) of a topology-aware driver, over fake claims and
// classes, one worker, the scripted driver (GetCapacity 1 TiB unless
// scripted) and the recording API (provisioner_fakes.h). ClaimTaker waits
// 100 ms (no jitter) before its first attempt, polling every 10 ms.
//
// "Not yet" is read at each poll's timer - the sync that set it is over -
// and "never" after Settle(), which provisions a claim of this node behind
// it in the one worker's FIFO.
#include <gmock/gmock.h>
#include <grpcpp/support/status_code_enum.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "provisioner/claim_controller.h"
#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;
using fakes::DriverClass;
using fakes::PendingClaim;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Pvc = kube::PersistentVolumeClaim;
using kube::WatchEventType;

constexpr std::string_view kNodeA = "node-a";
constexpr std::string_view kLocalZoneKey = "topology.example.com/zone";
constexpr std::string_view kLocalKey = "apps/local";
constexpr std::string_view kLocalVolume = "pvc-uid-local";
constexpr auto kBaseDelay = 100ms;
constexpr auto kOwnerPoll = 10ms;

// apps/local, of class "fast", selected for `node` (none when empty).
Pvc LocalClaim(const std::string& node = "") {
  Pvc claim = PendingClaim("local", "uid-local");
  if (!node.empty()) claim.metadata.annotations[kSelectedNodeAnnotation] = node;
  return claim;
}

kube::StorageClass ClassBinding(const std::string& mode) {
  kube::StorageClass storage_class = DriverClass();
  storage_class.volume_binding_mode = mode;
  return storage_class;
}

kube::StorageClass ClassAllowingZones(std::vector<std::string> zones) {
  kube::StorageClass storage_class = ClassBinding("Immediate");
  storage_class.allowed_topologies = {
      kube::TopologySelectorTerm{.match_label_expressions = {{.key = std::string(kLocalZoneKey),
                                                              .values = std::move(zones)}}}};
  return storage_class;
}

class ClaimNodeTest : public fakes::World {
 protected:
  // A `base_delay` of 0 takes a claim in its first sync, without a wait.
  void Start(std::vector<Pvc> claims, kube::StorageClass storage_class,
             bool immediate_binding = true, std::chrono::nanoseconds base_delay = kBaseDelay) {
    for (const Pvc& claim : claims) api_.PutClaim(claim);
    claims_.SetItems(std::move(claims));
    classes_.SetItems({std::move(storage_class), DriverClass("sentinel", "sentinel-class-uid")});
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(claims_);
    ClaimControllerOptions options;
    options.loop.worker_threads = 1;
    options.topology = TopologyOptions{};
    options.node = NodeDeploymentOptions{
        .node_name = std::string(kNodeA),
        .info = {.node_id = "id-a", .topology = TopologyTerm{{std::string(kLocalZoneKey), "z1"}}},
        .immediate_binding = immediate_binding,
        .base_delay = base_delay,
        .max_delay = 4 * base_delay};
    options.node_jitter = [] { return 0.0; };
    controller_.emplace(std::string(fakes::kDriver), "identity", capabilities_, std::move(options),
                        informers, api_, driver_, events_, nullptr, clock_);
    RunController(*controller_);
  }

  // A claim of this node provisioned behind everything queued before it.
  void Settle() {
    const std::string name = "sentinel-" + std::to_string(++sentinels_);
    Pvc sentinel = PendingClaim(name, name + "-uid", "sentinel");
    sentinel.metadata.annotations[kSelectedNodeAnnotation] = std::string(kNodeA);
    Send(claims_, WatchEventType::kAdded, sentinel);
    ASSERT_TRUE(log_.Await("Succeeded", "apps/" + name));
  }

  // Follows apps/local's polls up to `until`: at each one, no attempt to
  // take the claim has been made yet.
  void PollUntil(TimePoint until) {
    for (TimePoint next = clock_.Now() + kOwnerPoll; next <= until; next += kOwnerPoll) {
      ASSERT_TRUE(AwaitTimer(next));
      ASSERT_EQ(log_.Count("SELECT", kLocalKey), 0u) << "before " << (next - kStart) / 1ms << "ms";
      clock_.Advance(next - clock_.Now());
    }
  }

  testsupport::FakeListerWatcher<Pvc> claims_;
  fakes::FakeClaimEvents events_{log_};
  csi::Capabilities capabilities_{
      .plugin_services = {csi::PluginService::CONTROLLER_SERVICE,
                          csi::PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS},
      .controller_rpcs = {csi::ControllerRpc::CREATE_DELETE_VOLUME}};
  std::optional<ClaimController> controller_;
  int sentinels_ = 0;
};

// A claim the scheduler placed on this node is provisioned in this node's
// topology (NodeGetInfo's), without waiting and without a capacity check.
TEST_F(ClaimNodeTest, ClaimOfThisNodeIsProvisionedInItsTopology) {
  Start({LocalClaim(std::string(kNodeA))}, ClassBinding("WaitForFirstConsumer"));
  ASSERT_TRUE(log_.Await("Succeeded", kLocalKey));
  auto requests = driver_.CreateRequests(std::string(kLocalVolume));
  ASSERT_EQ(requests.size(), 1u);
  ASSERT_EQ(requests[0].accessibility_requirements().requisite_size(), 1);
  EXPECT_EQ(requests[0].accessibility_requirements().requisite(0).segments().at(kLocalZoneKey),
            "z1");
  std::optional<kube::PersistentVolume> pv = api_.Stored(std::string(kLocalVolume));
  ASSERT_TRUE(pv.has_value());
  ASSERT_EQ(pv->spec.node_affinity.size(), 1u);
  EXPECT_EQ(pv->spec.node_affinity[0].match_expressions[0].values, std::vector<std::string>{"z1"});
  EXPECT_EQ(log_.Count("SELECT", kLocalKey), 0u);
}

// Another node's claim is that node's: no call, no Event.
TEST_F(ClaimNodeTest, ClaimOfAnotherNodeIsLeftAlone) {
  Start({LocalClaim("node-b")}, ClassBinding("WaitForFirstConsumer"));
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), IsEmpty());
}

// An Immediate claim nobody placed: after the delay (100 ms, polled every
// 10 ms) GetCapacity for this node's zone, then selected-node is written
// with this node guarded by the cached resourceVersion. The volume is made
// only once the watch brings the updated claim.
TEST_F(ClaimNodeTest, UnplacedImmediateClaimIsTakenAfterTheDelayAndProvisionedFromTheWatch) {
  Start({LocalClaim()}, ClassBinding("Immediate"));
  ASSERT_NO_FATAL_FAILURE(PollUntil(kStart + kBaseDelay));
  ASSERT_TRUE(log_.Await("SELECT", kLocalKey));
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), ElementsAre("SELECT apps/local: node-a@1"));
  EXPECT_THAT(log_.Times("SELECT", kLocalKey), ElementsAre(kStart + kBaseDelay));
  EXPECT_THAT(log_.Times("GetCapacity", "{topology.example.com/zone=z1}"),
              ElementsAre(kStart + kBaseDelay));

  Pvc taken = LocalClaim(std::string(kNodeA));
  taken.metadata.resource_version = "2";
  Send(claims_, WatchEventType::kModified, taken);
  ASSERT_TRUE(log_.Await("Succeeded", kLocalKey));
  EXPECT_EQ(log_.Count("CreateVolume", kLocalVolume), 1u);
}

// Another node took the claim while this one waited: it gives up, and
// never asks GetCapacity or writes the claim.
TEST_F(ClaimNodeTest, ClaimTakenByAnotherNodeDuringTheWaitIsGivenUp) {
  Start({LocalClaim()}, ClassBinding("Immediate"));
  ASSERT_NO_FATAL_FAILURE(PollUntil(kStart + 3 * kOwnerPoll));
  Pvc taken = LocalClaim("node-b");
  taken.metadata.resource_version = "2";
  Send(claims_, WatchEventType::kModified, taken);
  AdvanceTo(kStart + 4 * kBaseDelay);
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), IsEmpty());
  EXPECT_EQ(log_.Count("GetCapacity", "{topology.example.com/zone=z1}"), 0u);
}

// A WaitForFirstConsumer claim without a node is the scheduler's; with
// --node-deployment-immediate-binding=false so is an Immediate one. (No
// base delay in these: a claim taken at all is taken in its first sync.)
TEST_F(ClaimNodeTest, ClaimsForTheSchedulerAreNotTaken) {
  Start({LocalClaim()}, ClassBinding("WaitForFirstConsumer"), true, 0ns);
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), IsEmpty());
}

TEST_F(ClaimNodeTest, ImmediateClaimIsNotTakenWithoutImmediateBinding) {
  Start({LocalClaim()}, ClassBinding("Immediate"), /*immediate_binding=*/false, 0ns);
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), IsEmpty());
}

// allowedTopologies without this node's zone: not even a wait.
TEST_F(ClaimNodeTest, ClassWhoseTopologiesExcludeThisNodeIsNotTaken) {
  Start({LocalClaim()}, ClassAllowingZones({"z2", "z3"}), true, 0ns);
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), IsEmpty());
}

TEST_F(ClaimNodeTest, ClassWhoseTopologiesAdmitThisNodeIsTaken) {
  Start({LocalClaim()}, ClassAllowingZones({"z2", "z1"}));
  ASSERT_NO_FATAL_FAILURE(PollUntil(kStart + kBaseDelay));
  ASSERT_TRUE(log_.Await("SELECT", kLocalKey));
}

// GetCapacity says less than the claim asks for (1Gi): not taken.
TEST_F(ClaimNodeTest, TooLittleRoomLeavesTheClaimUntaken) {
  driver_.ScriptCapacity({int64_t{1} << 20});
  Start({LocalClaim()}, ClassBinding("Immediate"));
  ASSERT_NO_FATAL_FAILURE(PollUntil(kStart + kBaseDelay));
  ASSERT_TRUE(log_.Await("GetCapacity", "{topology.example.com/zone=z1}"));
  ASSERT_NO_FATAL_FAILURE(Settle());
  EXPECT_THAT(log_.Of({kLocalKey, kLocalVolume}), IsEmpty());
}

// A capacity check that fails is no "too small": the claim is taken, so
// that provisioning can tell the user what is wrong.
TEST_F(ClaimNodeTest, FailedRoomCheckStillTakesTheClaim) {
  driver_.ScriptCapacity({base::Error::Grpc(grpc::UNAVAILABLE, "down")});
  Start({LocalClaim()}, ClassBinding("Immediate"));
  ASSERT_NO_FATAL_FAILURE(PollUntil(kStart + kBaseDelay));
  ASSERT_TRUE(log_.Await("SELECT", kLocalKey));
}

// The write met a conflict (someone changed the claim): the attempt starts
// over after the next, doubled delay.
TEST_F(ClaimNodeTest, ConflictStartsOverAfterTheDoubledDelay) {
  api_.Fail("SELECT", std::string(kLocalKey), {base::Error::Http(409, "conflict")});
  Start({LocalClaim()}, ClassBinding("Immediate"));
  ASSERT_NO_FATAL_FAILURE(PollUntil(kStart + kBaseDelay));
  ASSERT_TRUE(log_.Await("SELECT", kLocalKey));
  for (TimePoint next = clock_.Now() + kOwnerPoll; next <= kStart + 3 * kBaseDelay;
       next += kOwnerPoll) {
    AdvanceToTimer(next);
  }
  ASSERT_TRUE(log_.Await("SELECT", kLocalKey, 2));
  EXPECT_THAT(log_.Times("SELECT", kLocalKey),
              ElementsAre(kStart + kBaseDelay, kStart + 3 * kBaseDelay));
}

}  // namespace
}  // namespace provisioner
