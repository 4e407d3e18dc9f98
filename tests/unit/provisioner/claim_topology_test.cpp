// docs/provisioner.md §3.6 (topology), §3.9 (the PV's node affinity) and
// §3.11 (rescheduling): ClaimController for a topology-aware driver, over
// fake claims, classes, Nodes and CSINodes (three zones, one node each),
// one worker, a scripted driver that places a volume in its first preferred
// topology, and a recording API (provisioner_fakes.h).
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
using fakes::CreateFails;
using fakes::DriverClass;
using fakes::kDriver;
using fakes::PendingClaim;
using ::testing::ElementsAre;
using Pvc = kube::PersistentVolumeClaim;
using kube::WatchEventType;

constexpr std::string_view kTopologyKey = "topology.example.com/zone";

// apps/zonal, volume pvc-uid-z, of class "fast".
constexpr std::string_view kZonalKey = "apps/zonal";
constexpr std::string_view kZonalVolume = "pvc-uid-z";

kube::StorageClass WaitingClass() {
  kube::StorageClass storage_class = DriverClass();
  storage_class.volume_binding_mode = "WaitForFirstConsumer";
  return storage_class;
}

// apps/zonal at `resource_version`, with the node the scheduler picked
// (none when empty).
Pvc ZonalClaim(const std::string& selected_node, const std::string& resource_version = "1") {
  Pvc claim = PendingClaim("zonal", "uid-z");
  claim.metadata.resource_version = resource_version;
  if (!selected_node.empty()) claim.metadata.annotations[kSelectedNodeAnnotation] = selected_node;
  return claim;
}

class ClaimTopologyTest : public fakes::World {
 protected:
  // Runs the controller with one worker over `claims` of `storage_class`
  // and nodes node-z1..node-z3 (labels and CSINodes with the zone key).
  void Start(std::vector<Pvc> claims, kube::StorageClass storage_class) {
    for (const Pvc& claim : claims) api_.PutClaim(claim);
    claims_.SetItems(std::move(claims));
    classes_.SetItems({std::move(storage_class)});
    std::vector<kube::Node> nodes;
    std::vector<kube::CSINode> csi_nodes;
    for (const char* zone : {"z1", "z2", "z3"}) {
      kube::Node& node = nodes.emplace_back();
      node.metadata.name = std::string("node-") + zone;
      node.metadata.labels[kTopologyKey] = zone;
      kube::CSINode& csi_node = csi_nodes.emplace_back();
      csi_node.metadata.name = node.metadata.name;
      csi_node.spec.drivers.push_back({.name = std::string(kDriver),
                                       .node_id = node.metadata.name,
                                       .topology_keys = {std::string(kTopologyKey)},
                                       .allocatable_count = std::nullopt});
    }
    nodes_.SetItems(std::move(nodes));
    csi_nodes_.SetItems(std::move(csi_nodes));
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(claims_);
    informers.UseSource(nodes_);
    informers.UseSource(csi_nodes_);
    ClaimControllerOptions options;
    options.loop.worker_threads = 1;  // retries from 1 s
    options.topology = TopologyOptions{};
    controller_.emplace(std::string(kDriver), "identity", capabilities_, std::move(options),
                        informers, api_, driver_, events_, nullptr, clock_);
    RunController(*controller_);
  }

  // The zones CreateVolume of the zonal claim was asked for, in order.
  std::vector<std::string> Zones(
      const google::protobuf::RepeatedPtrField<csi::v1::Topology>& list) {
    std::vector<std::string> zones;
    for (const auto& topology : list) zones.push_back(topology.segments().at(kTopologyKey));
    return zones;
  }

  testsupport::FakeListerWatcher<Pvc> claims_;
  testsupport::FakeListerWatcher<kube::Node> nodes_;
  testsupport::FakeListerWatcher<kube::CSINode> csi_nodes_;
  fakes::FakeClaimEvents events_{log_};
  csi::Capabilities capabilities_{
      .plugin_services = {csi::PluginService::CONTROLLER_SERVICE,
                          csi::PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS},
      .controller_rpcs = {csi::ControllerRpc::CREATE_DELETE_VOLUME}};
  std::optional<ClaimController> controller_;
};

// §3.6, §3.9: WaitForFirstConsumer asks for the picked node's zone first,
// and the PV is pinned to where the driver put the volume.
TEST_F(ClaimTopologyTest, WaitingClaimAsksForTheSelectedNodesZoneAndItsPvFollowsTheVolume) {
  Start({ZonalClaim("node-z2")}, WaitingClass());
  ASSERT_TRUE(log_.Await("POST", kZonalVolume));
  auto requests = driver_.CreateRequests(std::string(kZonalVolume));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_THAT(Zones(requests[0].accessibility_requirements().requisite()),
              ElementsAre("z1", "z2", "z3"));
  EXPECT_THAT(Zones(requests[0].accessibility_requirements().preferred()),
              ElementsAre("z2", "z3", "z1"));
  auto pv = api_.Stored(std::string(kZonalVolume));
  ASSERT_TRUE(pv.has_value());
  ASSERT_EQ(pv->spec.node_affinity.size(), 1u);
  EXPECT_THAT(pv->spec.node_affinity[0].match_expressions,
              ElementsAre(kube::NodeSelectorRequirement{std::string(kTopologyKey), "In", {"z2"}}));
}

// §3.6: an Immediate claim of a topology-aware driver is asked for every
// zone the driver registered.
TEST_F(ClaimTopologyTest, ImmediateClaimAsksForEveryRegisteredZone) {
  Start({ZonalClaim("")}, DriverClass());
  ASSERT_TRUE(log_.Await("POST", kZonalVolume));
  auto requests = driver_.CreateRequests(std::string(kZonalVolume));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_THAT(Zones(requests[0].accessibility_requirements().requisite()),
              ElementsAre("z1", "z2", "z3"));
}

// §3.11: ResourceExhausted for the picked node: Warning, the annotation
// removed so the scheduler picks again, and no retry of its own.
TEST_F(ClaimTopologyTest, ResourceExhaustedOnTheSelectedNodeHandsTheClaimBackToTheScheduler) {
  driver_.ScriptCreate(std::string(kZonalVolume),
                       {CreateFails(grpc::RESOURCE_EXHAUSTED, "zone z2 is full")});
  Start({ZonalClaim("node-z2")}, WaitingClass());
  ASSERT_TRUE(log_.Await("UNSELECT", kZonalKey));
  // A retry of its own would come after 1 s.
  AdvanceTo(kStart + 10min);
  // The scheduler picks again: the next attempt goes there.
  Send(claims_, WatchEventType::kModified, ZonalClaim("node-z3", "200"));
  ASSERT_TRUE(log_.Await("Succeeded", kZonalKey));
  EXPECT_THAT(log_.Of({kZonalKey, kZonalVolume}),
              ElementsAre("Provisioning apps/zonal", "CreateVolume pvc-uid-z",
                          "Failed apps/zonal: zone z2 is full", "UNSELECT apps/zonal",
                          "Provisioning apps/zonal", "CreateVolume pvc-uid-z", "POST pvc-uid-z",
                          "Succeeded apps/zonal: pvc-uid-z"));
  auto requests = driver_.CreateRequests(std::string(kZonalVolume));
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(Zones(requests[1].accessibility_requirements().preferred())[0], "z3");
}

// §3.8: without a picked node there is no one to ask: ResourceExhausted is
// final and retried with the backoff.
TEST_F(ClaimTopologyTest, ResourceExhaustedWithoutSelectedNodeIsRetriedNotRescheduled) {
  driver_.ScriptCreate(std::string(kZonalVolume),
                       {CreateFails(grpc::RESOURCE_EXHAUSTED, "no space")});
  Start({ZonalClaim("")}, DriverClass());
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("POST", kZonalVolume));
  EXPECT_EQ(log_.Count("UNSELECT", kZonalKey), 0u);
  EXPECT_EQ(log_.Count("CreateVolume", kZonalVolume), 2u);
}

// §3.11: the annotation could not be removed: retried as a final error.
TEST_F(ClaimTopologyTest, FailedReschedulingIsRetriedWithTheBackoff) {
  driver_.ScriptCreate(std::string(kZonalVolume),
                       {CreateFails(grpc::RESOURCE_EXHAUSTED, "zone z2 is full")});
  api_.Fail("UNSELECT", std::string(kZonalKey), {fakes::ServerError()});
  Start({ZonalClaim("node-z2")}, WaitingClass());
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("POST", kZonalVolume));
  EXPECT_EQ(log_.Count("UNSELECT", kZonalKey), 1u);
  EXPECT_EQ(log_.Count("CreateVolume", kZonalVolume), 2u);
}

// §3.3 step 9: the picked node has no CSINode: the scheduler is asked to
// pick again before the driver is asked anything.
TEST_F(ClaimTopologyTest, SelectedNodeWithoutCsiNodeIsRescheduledWithoutCreateVolume) {
  Start({ZonalClaim("node-new")}, WaitingClass());
  ASSERT_TRUE(log_.Await("UNSELECT", kZonalKey));
  EXPECT_THAT(log_.Of({kZonalKey, kZonalVolume}),
              ElementsAre("Provisioning apps/zonal",
                          "Failed apps/zonal: failed to get selected CSINode node-new: "
                          "csinode.storage.k8s.io \"node-new\" not found",
                          "UNSELECT apps/zonal"));
}

// §9.1, §9.8: CreateVolume's outcome is unknown: the claim records the
// requirements it carried beside the volume-being-created finalizer; the
// final answer takes both off, the record first.
TEST_F(ClaimTopologyTest, UnknownOutcomeRecordsThePlaceUntilTheAnswerIsKnown) {
  driver_.ScriptCreate(std::string(kZonalVolume),
                       {CreateFails(grpc::DEADLINE_EXCEEDED, "context deadline exceeded")});
  Start({ZonalClaim("node-z2")}, WaitingClass());
  ASSERT_TRUE(AwaitTimer(kStart + 1s));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(log_.Await("Succeeded", kZonalKey));
  const std::string record =
      R"({"preferred":[{"topology.example.com/zone":"z2"},{"topology.example.com/zone":"z3"},)"
      R"({"topology.example.com/zone":"z1"}],"requisite":[{"topology.example.com/zone":"z1"},)"
      R"({"topology.example.com/zone":"z2"},{"topology.example.com/zone":"z3"}]})";
  EXPECT_THAT(
      log_.All(),
      ElementsAre(
          "Provisioning apps/zonal", "CreateVolume pvc-uid-z",
          "ANNOTATION apps/zonal: " + std::string(kAccessibilityRecordAnnotation) + "=" + record,
          "FINALIZER apps/zonal: +" + std::string(kVolumeBeingCreatedFinalizer),
          "Failed apps/zonal: context deadline exceeded", "Provisioning apps/zonal",
          "CreateVolume pvc-uid-z", "POST pvc-uid-z",
          "ANNOTATION apps/zonal: " + std::string(kAccessibilityRecordAnnotation) + "-",
          "FINALIZER apps/zonal: -" + std::string(kVolumeBeingCreatedFinalizer),
          "Succeeded apps/zonal: pvc-uid-z"));
}

// §9.8, lib #152: a restarted process finds the record on the claim and asks
// for that place, whatever the Nodes say now.
TEST_F(ClaimTopologyTest, RestartedProcessAsksForTheRecordedPlace) {
  Pvc claim = ZonalClaim("node-z2");
  claim.metadata.finalizers.push_back(std::string(kVolumeBeingCreatedFinalizer));
  claim.metadata.annotations[kAccessibilityRecordAnnotation] =
      R"({"requisite":[{"topology.example.com/zone":"z9"}],)"
      R"("preferred":[{"topology.example.com/zone":"z9"}]})";
  Start({claim}, WaitingClass());
  ASSERT_TRUE(log_.Await("Succeeded", kZonalKey));
  auto requests = driver_.CreateRequests(std::string(kZonalVolume));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_THAT(Zones(requests[0].accessibility_requirements().requisite()), ElementsAre("z9"));
  EXPECT_THAT(Zones(requests[0].accessibility_requirements().preferred()), ElementsAre("z9"));
  EXPECT_EQ(log_.Count("ANNOTATION", kZonalKey), 1u);  // the removal
  EXPECT_EQ(log_.Count("FINALIZER",
                       std::string(kZonalKey) + ": -" + std::string(kVolumeBeingCreatedFinalizer)),
            1u);
}

// A record that does not parse is no place: the caches decide.
TEST_F(ClaimTopologyTest, UnreadableRecordIsIgnored) {
  Pvc claim = ZonalClaim("node-z2");
  claim.metadata.annotations[kAccessibilityRecordAnnotation] = "{not json";
  Start({claim}, WaitingClass());
  ASSERT_TRUE(log_.Await("Succeeded", kZonalKey));
  auto requests = driver_.CreateRequests(std::string(kZonalVolume));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_THAT(Zones(requests[0].accessibility_requirements().preferred()),
              ElementsAre("z2", "z3", "z1"));
}

}  // namespace
}  // namespace provisioner
