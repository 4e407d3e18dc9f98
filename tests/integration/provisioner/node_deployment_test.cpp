// Node deployment end to end (docs/provisioner.md §3.12, §2.4): two "nodes",
// each a labelled Node with its CSINode, a fault driver of its own whose
// NodeGetInfo answers that node's ID and zone, and a provisioner with
// --node-deployment and that node's NODE_NAME. A claim the scheduler placed
// on node A is provisioned by A only, in A's zone; an Immediate claim is
// taken by exactly one of them (its selected-node written by that one, one
// CreateVolume in all); a released volume is deleted by its node only.
// The same checks run against upstream's provisioner and ours.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/cluster_objects.h"
#include "tests/support/csi_driver_records.h"
#include "tests/support/readiness.h"
#include "tests/support/test_case_files.h"

namespace provisioner_it {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr char kNodeZoneKey[] = "topology.fault.csi.test/zone";
constexpr char kSelectedNodeKey[] = "volume.kubernetes.io/selected-node";

// One node of the test: its names and where its driver keeps its state.
struct TestNode {
  std::string name;
  std::string zone;
  std::string socket;
  std::string state_file;
};

class NodeDeploymentTest : public ProvisionerPairTest {
 protected:
  // Nodes A and B with their drivers and the provisioners under test.
  // `extra_args` and `extra_env` go to both provisioners.
  void StartTwoNodes(const Names& n, const std::string& binding_mode,
                     const std::vector<std::string>& extra_args = {},
                     const std::vector<std::pair<std::string, std::string>>& extra_env = {}) {
    a_ = {n.claim + "-a", "zone-a", socket(), work_dir() + "/driver-state.json"};
    b_ = {n.claim + "-b", "zone-b", socket() + "-b", work_dir() + "/driver-b-state.json"};
    for (const TestNode* node : {&a_, &b_}) {
      ASSERT_TRUE(testsupport::CreateNode(
                      *admin_, {.name = node->name, .labels = {{kNodeZoneKey, node->zone}}})
                      .ok());
      auto registered = testsupport::CreateCsiNode(*admin_, node->name, n.driver,
                                                   node->name + "-id", {kNodeZoneKey});
      ASSERT_TRUE(registered.ok()) << registered.error().message;
    }
    ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, DriverArgs(a_)));
    ASSERT_NO_FATAL_FAILURE(StartSecondDriver(n.driver));
    ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
        {.name = n.storage_class, .provisioner = n.driver, .binding_mode = binding_mode}));
    for (const TestNode* node : {&a_, &b_}) {
      std::vector<std::string> args = {"--csi-address=" + node->socket, "--node-deployment",
                                       "--node-deployment-base-delay=200ms",
                                       "--node-deployment-max-delay=1s"};
      args.insert(args.end(), extra_args.begin(), extra_args.end());
      std::vector<std::pair<std::string, std::string>> env = extra_env;
      env.emplace_back("NODE_NAME", node->name);
      provisioners_[node->name] = StartProvisionerOf(GetParam(), std::move(args), std::move(env),
                                                     "provisioner-" + node->zone);
      ASSERT_NE(provisioners_[node->name], nullptr);
    }
  }

  // The drivers say they are topology-aware unless a test cleared this
  // before StartTwoNodes; NodeGetInfo answers the node's zone either way.
  bool driver_topology_ = true;

  std::vector<std::string> DriverArgs(const TestNode& node) const {
    std::vector<std::string> args = {
        "--capabilities=GET_CAPACITY", "--node-info-id=" + node.name + "-id",
        "--node-topology=" + std::string(kNodeZoneKey) + "=" + node.zone};
    if (driver_topology_) args.emplace_back("--accessible-topology");
    return args;
  }

  // Node B's driver; the fixture runs A's.
  void StartSecondDriver(const std::string& driver) {
    std::vector<std::string> argv = {FAULT_DRIVER_BIN, "--endpoint=" + b_.socket,
                                     "--name=" + driver, "--state-file=" + b_.state_file};
    for (std::string& arg : DriverArgs(b_)) argv.push_back(std::move(arg));
    driver_b_ = testsupport::SpawnLogged(work_dir(), "driver-b", std::move(argv));
    ASSERT_NE(driver_b_, nullptr);
    auto listening =
        testsupport::WaitFor("driver-b", "its socket", *driver_b_, 30s, [&]() -> base::Status {
          if (std::filesystem::exists(b_.socket)) return {};
          return base::Error("no socket " + b_.socket);
        });
    ASSERT_TRUE(listening.ok()) << listening.error().message;
  }

  // How often `node`'s driver received `method`.
  static int CallsOn(const TestNode& node, std::string_view method) {
    return testsupport::CountFaultDriverCalls(testsupport::ReadFaultDriverState(node.state_file),
                                              method, false);
  }
  const TestNode& NodeNamed(const std::string& name) const { return name == a_.name ? a_ : b_; }
  const TestNode& OtherThan(const TestNode& node) const { return &node == &a_ ? b_ : a_; }

  // A claim of the test's class the scheduler placed on node A, once Bound
  // (`claim`: as created).
  void ProvisionClaimOfNodeA(const Names& n, json& claim) {
    claim = CreateClaim({.name = n.claim,
                         .storage_class = n.storage_class,
                         .annotations = {{kSelectedNodeKey, a_.name}}});
    ASSERT_FALSE(claim.is_null());
    json bound = AwaitBound("default", n.claim);
    ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump();
  }

  // The provisioner ends start-up with a klog.Fatal (255) saying `message`.
  static void ExpectFatalExit(testsupport::Process* process, const std::string& message) {
    ASSERT_NE(process, nullptr);
    EXPECT_EQ(process->Wait(), 255);
    EXPECT_NE(LogOf(*process).find(message), std::string::npos) << process->LogTail(5);
  }

  testsupport::Process* ProvisionerOf(const TestNode& node) { return provisioners_[node.name]; }

  TestNode a_;
  TestNode b_;
  std::unique_ptr<testsupport::Process> driver_b_;
  std::map<std::string, testsupport::Process*> provisioners_;  // by node name
};

// §3.12: the claim names node A: A provisions it in A's zone, B never asks
// its driver; once released, A deletes the volume and B does nothing.
TEST_P(NodeDeploymentTest, ClaimOfNodeAIsProvisionedAndDeletedByAOnly) {
  const Names n = NamesFor("node-claim");
  ASSERT_NO_FATAL_FAILURE(StartTwoNodes(n, "WaitForFirstConsumer"));
  json claim;
  ASSERT_NO_FATAL_FAILURE(ProvisionClaimOfNodeA(n, claim));
  const std::string pv_name = PvNameOf(claim);
  json pv = GetPv(pv_name);
  EXPECT_EQ(NodeAffinityOf(pv),
            (std::vector<std::string>{std::string(kNodeZoneKey) + " In zone-a"}));
  const std::string identity =
      pv.value(json::json_pointer("/spec/csi/volumeAttributes"), json::object())
          .value(kProvisionerIdentity, "");
  EXPECT_TRUE(identity.ends_with("-" + a_.name)) << identity;
  EXPECT_EQ(CallsOn(a_, "CreateVolume"), 1);
  EXPECT_EQ(CallsOn(b_, "CreateVolume"), 0);

  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", n.claim));
  ASSERT_TRUE(AwaitPvGone(pv_name));
  // Upstream may send it twice (a PV update between DeleteVolume and the
  // finalizer's removal, docs/provisioner.md §4.2 step 6): node A's either way.
  EXPECT_GE(CallsOn(a_, "DeleteVolume"), 1);
  EXPECT_EQ(CallsOn(b_, "DeleteVolume"), 0);
  for (const kube::Event& event : EventsAbout("default", "PersistentVolume", pv_name)) {
    EXPECT_NE(event.reason, "VolumeFailedDelete") << event.message;
  }
}

// §3.12: an Immediate claim no scheduler places: exactly one node takes it
// (after its delay and GetCapacity), writes itself as the selected node and
// provisions it in its zone; the other one never calls CreateVolume.
TEST_P(NodeDeploymentTest, ImmediateClaimIsTakenByExactlyOneNode) {
  const Names n = NamesFor("node-immediate");
  ASSERT_NO_FATAL_FAILURE(StartTwoNodes(n, "Immediate"));
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump();
  const std::string owner_name = AnnotationOf(bound, kSelectedNodeKey);
  ASSERT_TRUE(owner_name == a_.name || owner_name == b_.name) << owner_name;
  const TestNode& owner = NodeNamed(owner_name);
  EXPECT_EQ(CallsOn(owner, "CreateVolume"), 1);
  EXPECT_EQ(CallsOn(OtherThan(owner), "CreateVolume"), 0);
  EXPECT_GE(CallsOn(owner, "GetCapacity"), 1);
  EXPECT_EQ(NodeAffinityOf(GetPv(PvNameOf(claim))),
            (std::vector<std::string>{std::string(kNodeZoneKey) + " In " + owner.zone}));
}

// §3.12 with a driver that is not topology-aware: node deployment starts
// all the same, a claim placed on node A is provisioned by A alone, and its
// PV has no node affinity.
TEST_P(NodeDeploymentTest, DriverWithoutTopologyProvisionsTheClaimsOfItsNode) {
  const Names n = NamesFor("node-flat");
  driver_topology_ = false;
  ASSERT_NO_FATAL_FAILURE(StartTwoNodes(n, "WaitForFirstConsumer"));
  json claim;
  ASSERT_NO_FATAL_FAILURE(ProvisionClaimOfNodeA(n, claim));
  EXPECT_EQ(NodeAffinityOf(GetPv(PvNameOf(claim))), std::vector<std::string>{});
  EXPECT_EQ(CallsOn(a_, "CreateVolume"), 1);
  EXPECT_EQ(CallsOn(b_, "CreateVolume"), 0);
}

// §5 in node deployment: each node publishes its own zone's capacity (the
// fixed segment from NodeGetInfo), labelled as managed by
// external-provisioner-<node>.
TEST_P(NodeDeploymentTest, EachNodePublishesTheCapacityOfItsOwnZone) {
  const Names n = NamesFor("node-capacity");
  ASSERT_NO_FATAL_FAILURE(StartTwoNodes(n, "WaitForFirstConsumer",
                                        {"--enable-capacity", "--capacity-ownerref-level=-1"},
                                        {{"NAMESPACE", "default"}}));
  std::map<std::string, std::string> managers_by_zone;
  std::map<std::string, std::string> capacity_by_zone;
  ASSERT_TRUE(Eventually([&] {
    json list = GetJson(
        "/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities"
        "?labelSelector=csi.storage.k8s.io%2Fdrivername%3D" +
        n.driver);
    managers_by_zone.clear();
    for (const json& object : list.value("items", json::array())) {
      if (object.value("storageClassName", "") != n.storage_class) continue;
      const std::string zone =
          object.value(json::json_pointer("/nodeTopology/matchLabels"), json::object())
              .value(kNodeZoneKey, "");
      managers_by_zone[zone] =
          object.value(json::json_pointer("/metadata/labels/csi.storage.k8s.io~1managed-by"), "");
      capacity_by_zone[zone] = object.value("capacity", "");
    }
    return managers_by_zone.size() == 2;
  })) << "objects by zone: "
      << json(managers_by_zone).dump();
  EXPECT_EQ(managers_by_zone,
            (std::map<std::string, std::string>{{"zone-a", "external-provisioner-" + a_.name},
                                                {"zone-b", "external-provisioner-" + b_.name}}));
  EXPECT_EQ(capacity_by_zone,
            (std::map<std::string, std::string>{{"zone-a", "1Ti"}, {"zone-b", "1Ti"}}));
}

// §2.4 step 1: NODE_NAME is required, checked before anything else starts.
TEST_P(NodeDeploymentTest, WithoutNodeNameItExitsFatally) {
  ExpectFatalExit(StartProvisionerUnderTest({"--node-deployment"}),
                  "The NODE_NAME environment variable must be set when using "
                  "--enable-node-deployment.");
}

// §2.4 step 7: a failing NodeGetInfo ends start-up (Fatal, 255).
TEST_P(NodeDeploymentTest, FailingNodeGetInfoExitsFatally) {
  const Names n = NamesFor("node-info-fails");
  ASSERT_NO_FATAL_FAILURE(WriteDriverFaults(
      {{"NodeGetInfo", json::array({{{"code", "INTERNAL"}, {"message", "no node here"}}})}}));
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, {"--accessible-topology"}));
  ExpectFatalExit(StartProvisionerOf(GetParam(), {"--node-deployment"},
                                     {{"NODE_NAME", n.claim + "-a"}}, "provisioner"),
                  "Failed to get node info from CSI driver: rpc error: code = Internal desc = "
                  "no node here");
}

INSTANTIATE_PROVISIONER_PAIRS(NodeDeploymentTest);

// Our deliberate difference (docs/provisioner.md §9.10), which upstream's
// provisioner does not meet: ours only.
class NodeDeploymentOursOnlyTest : public NodeDeploymentTest {};

// §9.10: a driver without topology and an Immediate claim: one node takes
// it and provisions it, and both processes keep running (upstream's
// capacity check dereferences the Node lister it never made: both crash).
TEST_P(NodeDeploymentOursOnlyTest, DriverWithoutTopologyTakesImmediateClaimsWithoutCrashing) {
  const Names n = NamesFor("node-flat-now");
  driver_topology_ = false;
  ASSERT_NO_FATAL_FAILURE(StartTwoNodes(n, "Immediate"));
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump();
  const TestNode& owner = NodeNamed(AnnotationOf(bound, kSelectedNodeKey));
  EXPECT_EQ(CallsOn(owner, "CreateVolume"), 1);
  EXPECT_EQ(CallsOn(OtherThan(owner), "CreateVolume"), 0);
  EXPECT_TRUE(ProvisionerOf(a_)->IsRunning());
  EXPECT_TRUE(ProvisionerOf(b_)->IsRunning());
}

INSTANTIATE_TEST_SUITE_P(Ours, NodeDeploymentOursOnlyTest, ::testing::Values(OurProvisioner()),
                         [](const ::testing::TestParamInfo<ProvisionerUnderTest>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace provisioner_it
