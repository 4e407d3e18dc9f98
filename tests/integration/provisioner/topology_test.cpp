// Topology end to end (docs/provisioner.md §3.6, §3.9, §3.11): kubelet-less
// Nodes in two zones whose CSINodes register the zone key for the test's
// driver, the fault driver placing each volume in the first topology the
// request prefers (--accessible-topology), and the real kube-scheduler,
// which picks the node of a WaitForFirstConsumer claim and picks again when
// the provisioner gives the claim back. The same checks run against
// upstream's provisioner and ours.
#include <gtest/gtest.h>

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/watch_event.h"
#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/cluster_objects.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

constexpr char kZoneKey[] = "topology.fault.csi.test/zone";
constexpr char kSelectedNode[] = "volume.kubernetes.io/selected-node";

// The zones of a recorded CreateVolume request's requisite or preferred list.
std::vector<std::string> ZonesOf(const json& request, const std::string& list) {
  std::vector<std::string> zones;
  const json requirements = request.value("accessibility_requirements", json::object());
  if (!requirements.is_object()) return zones;
  for (const json& topology : requirements.value(list, json::array())) {
    zones.push_back(topology.value("segments", json::object()).value(kZoneKey, ""));
  }
  return zones;
}

// The values the claim's selected-node annotation took, in order, after
// `resource_version` ("" while absent; repeats merged), as the API
// server's watch history replays them; stops after `seconds`.
std::vector<std::string> SelectedNodeHistory(kube::Client& client,
                                             const std::string& resource_version,
                                             const std::string& claim, int seconds = 3) {
  std::vector<std::string> values;
  kube::WatchOptions options;
  options.resource_version = resource_version;
  options.timeout_seconds = seconds;
  options.allow_bookmarks = false;
  std::function<bool(kube::WatchEvent<kube::PersistentVolumeClaim> &&)> on_event =
      [&](kube::WatchEvent<kube::PersistentVolumeClaim>&& event) {
        if (event.type == kube::WatchEventType::kError) {
          values.push_back("watch error: " + event.error.message);
          return false;
        }
        if (event.object.metadata.name != claim) return true;
        auto it = event.object.metadata.annotations.find(kSelectedNode);
        std::string value = it == event.object.metadata.annotations.end() ? "" : it->second;
        if (values.empty() || values.back() != value) values.push_back(std::move(value));
        return true;
      };
  base::Status status =
      client.Watch<kube::PersistentVolumeClaim>("default", options, on_event, std::stop_token{});
  if (!status.ok()) values.push_back("watch failed: " + status.error().message);
  return values;
}

// Two Nodes, <prefix>-zone-a and <prefix>-zone-b, labelled with their zone,
// whose CSINodes register the zone key for `driver`.
void CreateZonalNodes(kube::Client& admin, const std::string& prefix, const std::string& driver) {
  for (const char* zone : {"zone-a", "zone-b"}) {
    const std::string node = prefix + "-" + zone;
    ASSERT_TRUE(testsupport::CreateNode(admin, {.name = node, .labels = {{kZoneKey, zone}}}).ok());
    auto registered = testsupport::CreateCsiNode(admin, node, driver, node + "-id", {kZoneKey});
    ASSERT_TRUE(registered.ok()) << registered.error().message;
  }
}

class TopologyTest : public ProvisionerPairTest {
 protected:
  // The fault driver with topology, two Nodes of its own (zone-a, zone-b)
  // registered for it, and the provisioner under test.
  void StartZonalStack(const Names& names, std::vector<std::string> provisioner_args = {}) {
    node_prefix_ = names.claim;
    ASSERT_NO_FATAL_FAILURE(StartFaultDriver(names.driver, {"--accessible-topology"}));
    ASSERT_NO_FATAL_FAILURE(CreateZonalNodes(*admin_, node_prefix_, names.driver));
    ASSERT_NE(StartProvisionerUnderTest(std::move(provisioner_args)), nullptr);
  }
  // This test's node in `zone`.
  std::string NodeIn(const std::string& zone) const { return node_prefix_ + "-" + zone; }

  // A Pod of `claim` that only `zone`'s node may run.
  void CreatePodIn(const std::string& name, const std::string& claim, const std::string& zone) {
    auto created = testsupport::CreatePod(
        *admin_, {.name = name,
                  .claims = {claim},
                  .node_selector = {{"kubernetes.io/hostname", NodeIn(zone)}}});
    ASSERT_TRUE(created.ok()) << created.error().message;
  }

 private:
  std::string node_prefix_;  // the Nodes' names start with it
};

// §3.6, §3.9: the scheduler picks the Pod's node; CreateVolume asks for that
// node's zone first, among the zones the driver registered; the PV is
// pinned to where the driver put the volume, and the claim binds.
TEST_P(TopologyTest, WaitForFirstConsumerVolumeIsMadeInThePodsZone) {
  const Names n = NamesFor("wffc");
  ASSERT_NO_FATAL_FAILURE(StartZonalStack(n));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .binding_mode = "WaitForFirstConsumer"}));
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  ASSERT_NO_FATAL_FAILURE(CreatePodIn(Unique("wffc-pod"), n.claim, "zone-b"));

  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump();
  EXPECT_EQ(AnnotationOf(bound, kSelectedNode), NodeIn("zone-b"));
  const std::string pv_name = PvNameOf(claim);
  std::vector<json> requests = DriverCreateRequestsFor(pv_name);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(ZonesOf(requests[0], "requisite"), (std::vector<std::string>{"zone-a", "zone-b"}));
  EXPECT_EQ(ZonesOf(requests[0], "preferred"), (std::vector<std::string>{"zone-b", "zone-a"}));
  EXPECT_EQ(NodeAffinityOf(GetPv(pv_name)),
            (std::vector<std::string>{std::string(kZoneKey) + " In zone-b"}));
}

// §3.11: the driver has no room on the picked node's zone: the claim gets
// upstream's Warning and loses selected-node, the scheduler picks again,
// and the next CreateVolume succeeds.
TEST_P(TopologyTest, ResourceExhaustedSendsTheClaimBackToTheScheduler) {
  const Names n = NamesFor("exhausted");
  ASSERT_NO_FATAL_FAILURE(WriteDriverFaults(
      {{"CreateVolume",
        json::array(
            {{{"code", "RESOURCE_EXHAUSTED"}, {"message", "zone is full"}, {"times", 1}}})}}));
  ASSERT_NO_FATAL_FAILURE(StartZonalStack(n));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .binding_mode = "WaitForFirstConsumer"}));
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  ASSERT_NO_FATAL_FAILURE(CreatePodIn(Unique("exhausted-pod"), n.claim, "zone-a"));

  std::optional<kube::Event> failed =
      AwaitEvent("default", "PersistentVolumeClaim", n.claim, "ProvisioningFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->type, "Warning");
  EXPECT_EQ(failed->message, "rpc error: code = ResourceExhausted desc = zone is full");
  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump();
  std::vector<json> requests = DriverCreateRequestsFor(PvNameOf(claim));
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(DriverCallsOk("CreateVolume"), 1);
  // The scheduler's pick, taken back by the provisioner, picked again.
  const std::string node = NodeIn("zone-a");
  EXPECT_EQ(SelectedNodeHistory(*admin_, claim["metadata"]["resourceVersion"], n.claim),
            (std::vector<std::string>{node, "", node}));
}

// §3.6: an Immediate class asks for its allowedTopologies, whatever the
// nodes; without them, for every zone the driver registered.
TEST_P(TopologyTest, ImmediateClassAsksForAllowedTopologiesElseEveryRegisteredZone) {
  const Names n = NamesFor("immediate");
  ASSERT_NO_FATAL_FAILURE(StartZonalStack(n));
  const std::string allowed_class = n.storage_class + "-allowed";
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = allowed_class,
       .provisioner = n.driver,
       .allowed_topologies = json::array(
           {{{"matchLabelExpressions",
              json::array({{{"key", kZoneKey}, {"values", {"zone-b", "zone-z"}}}})}}})}));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class, .provisioner = n.driver}));
  json allowed = CreateClaim({.name = n.claim + "-allowed", .storage_class = allowed_class});
  json anywhere = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(allowed.is_null());
  ASSERT_FALSE(anywhere.is_null());
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim + "-allowed")), "Bound");
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");

  std::vector<json> requests = DriverCreateRequestsFor(PvNameOf(allowed));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(ZonesOf(requests[0], "requisite"), (std::vector<std::string>{"zone-b", "zone-z"}));
  std::vector<std::string> preferred = ZonesOf(requests[0], "preferred");
  ASSERT_EQ(preferred.size(), 2u);
  EXPECT_EQ(NodeAffinityOf(GetPv(PvNameOf(allowed))),
            (std::vector<std::string>{std::string(kZoneKey) + " In " + preferred[0]}));

  requests = DriverCreateRequestsFor(PvNameOf(anywhere));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(ZonesOf(requests[0], "requisite"), (std::vector<std::string>{"zone-a", "zone-b"}));
}

// §3.6 --strict-topology: a WaitForFirstConsumer claim asks for the
// selected node's zone alone, requisite and preferred.
TEST_P(TopologyTest, StrictTopologyAsksForTheSelectedNodesZoneAlone) {
  const Names n = NamesFor("strict");
  ASSERT_NO_FATAL_FAILURE(StartZonalStack(n, {"--strict-topology"}));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .binding_mode = "WaitForFirstConsumer"}));
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  ASSERT_NO_FATAL_FAILURE(CreatePodIn(Unique("strict-pod"), n.claim, "zone-b"));
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");
  std::vector<json> requests = DriverCreateRequestsFor(PvNameOf(claim));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(ZonesOf(requests[0], "requisite"), (std::vector<std::string>{"zone-b"}));
  EXPECT_EQ(ZonesOf(requests[0], "preferred"), (std::vector<std::string>{"zone-b"}));
}

// §3.6 --immediate-topology=false: an Immediate claim of a class without
// allowedTopologies carries no accessibility requirements, and its PV no
// node affinity (the driver placed it nowhere in particular).
TEST_P(TopologyTest, ImmediateTopologyOffSendsNoRequirementsForImmediateClaims) {
  const Names n = NamesFor("no-immediate-topology");
  ASSERT_NO_FATAL_FAILURE(StartZonalStack(n, {"--immediate-topology=false"}));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class, .provisioner = n.driver}));
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");
  std::vector<json> requests = DriverCreateRequestsFor(PvNameOf(claim));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_TRUE(requests[0].value("accessibility_requirements", json()).is_null()) << requests[0];
  EXPECT_TRUE(NodeAffinityOf(GetPv(PvNameOf(claim))).empty());
}

INSTANTIATE_PROVISIONER_PAIRS(TopologyTest);
INSTANTIATE_PROVISIONER_IN_CSI_SIDECARS(TopologyTest);

// §9.8, lib #152 (ours only: upstream keeps the place in memory): the
// provisioner dies while CreateVolume's outcome is unknown and a zone's node
// goes away meanwhile; the next provisioner asks for the place the first
// asked for, recorded on the claim, and the record goes with the answer.
TEST_F(OursOnlyTest, RestartedProvisionerAsksForTheSamePlaceAfterANodeWentAway) {
  const Names n = OwnNames("topology-record", "ours");
  // The first CreateVolume hangs past --timeout, then makes the volume; later
  // ones hang without making anything, until the provisioner is killed.
  ASSERT_NO_FATAL_FAILURE(WriteDriverFaults(
      {{"CreateVolume", json::array({{{"hang", true}, {"after_success", true}, {"times", 1}},
                                     {{"hang", true}}})}}));
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, {"--accessible-topology"}));
  ASSERT_NO_FATAL_FAILURE(CreateZonalNodes(*admin_, n.claim, n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class, .provisioner = n.driver}));
  const std::vector<std::string> fast = {"--timeout=2s", "--retry-interval-start=200ms",
                                         "--retry-interval-max=1s"};
  testsupport::Process* first = StartOurProvisioner(fast);
  ASSERT_NE(first, nullptr);
  const json created = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_TRUE(created.is_object());
  const std::string record_key =
      "external-provisioner.volume.kubernetes.io/accessibility-requirements";
  json claim;
  ASSERT_TRUE(Eventually(
      [&] {
        claim = GetClaim("default", n.claim);
        return !AnnotationOf(claim, record_key).empty();
      },
      std::chrono::seconds(20)))
      << "no accessibility record on the claim: " << claim.dump(2);
  first->Kill();
  // zone-b's node leaves: asked anew, the place would be zone-a alone.
  ASSERT_TRUE(
      admin_->Request("DELETE", "/apis/storage.k8s.io/v1/csinodes/" + n.claim + "-zone-b").ok());
  ASSERT_NO_FATAL_FAILURE(WriteDriverFaults(json::object()));
  ASSERT_NE(StartOurProvisioner(fast), nullptr);

  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump(2);
  std::vector<json> requests = DriverCreateRequestsFor(PvNameOf(created));
  ASSERT_GE(requests.size(), 2u);
  EXPECT_EQ(ZonesOf(requests.front(), "requisite"), (std::vector<std::string>{"zone-a", "zone-b"}));
  EXPECT_EQ(ZonesOf(requests.back(), "requisite"), ZonesOf(requests.front(), "requisite"));
  EXPECT_EQ(ZonesOf(requests.back(), "preferred"), ZonesOf(requests.front(), "preferred"));
  EXPECT_TRUE(Eventually([&] {
    return AnnotationOf(GetClaim("default", n.claim), record_key).empty();
  })) << GetClaim("default", n.claim).dump(2);
}

}  // namespace
}  // namespace provisioner_it
