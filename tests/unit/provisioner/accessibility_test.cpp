// docs/provisioner.md §3.6: the accessibility requirements of CreateVolume,
// one test per row of the binding / strict / allowedTopologies /
// --immediate-topology table and per error, with upstream's texts and
// states; the per-claim memo that keeps a retry's topology when the Node or
// CSINode goes away (lib #152).
#include "provisioner/accessibility.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using ::testing::ElementsAre;
using Pvc = kube::PersistentVolumeClaim;

const std::string kDriverName(fakes::kDriver);

// A requirement's terms as "k=v,k=v" strings (keys sorted), in order.
std::vector<std::string> Texts(const google::protobuf::RepeatedPtrField<csi::v1::Topology>& list) {
  std::vector<std::string> texts;
  for (const csi::v1::Topology& topology : list) {
    std::map<std::string, std::string> sorted(topology.segments().begin(),
                                              topology.segments().end());
    std::string text;
    for (const auto& [key, value] : sorted) text += (text.empty() ? "" : ",") + key + "=" + value;
    texts.push_back(text);
  }
  return texts;
}

class AccessibilityTest : public ::testing::Test {
 protected:
  // A Node with `labels` whose CSINode registers `keys` for the driver
  // (no CSINode when `keys` is nullopt; the driver absent when `driver` is
  // another one).
  void AddNode(const std::string& name, kube::StringMap labels,
               std::optional<std::vector<std::string>> keys,
               const std::string& driver = kDriverName) {
    auto node = std::make_shared<kube::Node>();
    node->metadata.name = name;
    node->metadata.labels = std::move(labels);
    nodes_.Upsert(node);
    if (keys) AddCsiNode(name, *keys, driver);
  }
  void AddCsiNode(const std::string& name, std::vector<std::string> keys,
                  const std::string& driver = kDriverName) {
    auto csi_node = std::make_shared<kube::CSINode>();
    csi_node->metadata.name = name;
    csi_node->spec.drivers.push_back({.name = driver,
                                      .node_id = name + "-id",
                                      .topology_keys = std::move(keys),
                                      .allocatable_count = std::nullopt});
    csi_nodes_.Upsert(csi_node);
  }
  // Three zones, one node each, all registered with the key "zone".
  void AddThreeZones() {
    for (const char* zone : {"z1", "z2", "z3"}) {
      AddNode(std::string("node-") + zone, {{"zone", zone}}, std::vector<std::string>{"zone"});
    }
  }
  void Allow(std::vector<std::string> zones) {
    class_.allowed_topologies.push_back({.match_label_expressions = {{"zone", std::move(zones)}}});
  }

  AccessibilityResult Requirements(const Pvc& claim, const std::string& selected_node = "") {
    TopologyView view{.driver_name = kDriverName,
                      .csi_nodes = csi_nodes_,
                      .nodes = nodes_,
                      .options = options_,
                      .memo = memo_};
    return AccessibilityRequirements(view, claim, class_, selected_node);
  }
  csi::v1::TopologyRequirement RequirementOf(const AccessibilityResult& result) {
    if (auto* failure = std::get_if<ProvisionFailure>(&result)) {
      ADD_FAILURE() << "failed: " << failure->error.message;
      return {};
    }
    const auto& requirement = std::get<0>(result);
    EXPECT_TRUE(requirement.has_value()) << "no requirement";
    return requirement.value_or(csi::v1::TopologyRequirement());
  }
  ProvisionFailure FailureOf(const AccessibilityResult& result) {
    auto* failure = std::get_if<ProvisionFailure>(&result);
    EXPECT_NE(failure, nullptr) << "no failure";
    return failure ? *failure : ProvisionFailure{base::Error(""), ProvisioningState::kFinished};
  }

  kube::Store<kube::CSINode> csi_nodes_;
  kube::Store<kube::Node> nodes_;
  TopologyMemo memo_;
  TopologyOptions options_;
  kube::StorageClass class_ = fakes::DriverClass();
  Pvc claim_ = fakes::PendingClaim("data", "uid-data");
};

TEST_F(AccessibilityTest, ImmediateWithoutImmediateTopologyAsksNothing) {
  AddThreeZones();
  options_.immediate = false;
  auto result = Requirements(claim_);
  ASSERT_FALSE(std::holds_alternative<ProvisionFailure>(result));
  EXPECT_FALSE(std::get<0>(result).has_value());
}

TEST_F(AccessibilityTest, ImmediateAggregatesEveryRegisteredNodeAndSpreadsByClaimName) {
  AddThreeZones();
  // FNV-1 of "web" is 1181096325: 1181096325 % 3 == 0, so ordinal 1 starts at z2.
  claim_.metadata.name = "data-web-1";
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z1", "zone=z2", "zone=z3"));
  EXPECT_THAT(Texts(requirement.preferred()), ElementsAre("zone=z2", "zone=z3", "zone=z1"));
}

TEST_F(AccessibilityTest, ImmediateCombinesEveryKeySetTheDriverRegistered) {
  AddNode("coarse", {{"zone", "z1"}, {"rack", "r1"}}, std::vector<std::string>{"zone"});
  AddNode("fine", {{"zone", "z2"}, {"rack", "r7"}}, std::vector<std::string>{"zone", "rack"});
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z1", "zone=z2", "rack=r7,zone=z2"));
}

TEST_F(AccessibilityTest, NodesWhoseDriverDidNotRegisterTheKeysAreNotCounted) {
  AddNode("mine", {{"zone", "z1"}}, std::vector<std::string>{"zone"});
  AddNode("no-csinode", {{"zone", "z2"}}, std::nullopt);
  AddNode("other-driver", {{"zone", "z3"}}, std::vector<std::string>{"zone"}, "other.example.com");
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z1"));
}

// The contract's table says "no keys anywhere: no requirements"; upstream's
// code (topology.go) answers this error, and the code is the fact.
TEST_F(AccessibilityTest, ImmediateWithNoKeysRegisteredAnywhereIsAnError) {
  AddNode("bare", {{"zone", "z1"}}, std::nullopt);
  ProvisionFailure failure = FailureOf(Requirements(claim_));
  EXPECT_EQ(failure.state, ProvisioningState::kNoChange);
  EXPECT_EQ(failure.error.message,
            "error generating accessibility requirements: no available topology found");
}

TEST_F(AccessibilityTest, ImmediateWithKeysButNoLabelledNodeIsAnError) {
  AddNode("unlabelled", {}, std::vector<std::string>{"zone"});
  ProvisionFailure failure = FailureOf(Requirements(claim_));
  EXPECT_EQ(failure.state, ProvisioningState::kNoChange);
  EXPECT_EQ(failure.error.message,
            "error generating accessibility requirements: topologyKeys [[zone]] were not found on "
            "any nodes");
}

TEST_F(AccessibilityTest, ImmediateWithAllowedTopologiesAsksForThemWhateverTheNodes) {
  AddThreeZones();
  Allow({"z3", "z9"});
  claim_.metadata.name = "data-web-1";  // offset (1181096325 + 1) % 2 == 0
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z3", "zone=z9"));
  EXPECT_THAT(Texts(requirement.preferred()), ElementsAre("zone=z3", "zone=z9"));
  claim_.metadata.name = "data-web-2";
  EXPECT_THAT(Texts(RequirementOf(Requirements(claim_)).preferred()),
              ElementsAre("zone=z9", "zone=z3"));
}

TEST_F(AccessibilityTest, AllowedTopologiesWithoutValuesAskNothing) {
  AddThreeZones();
  class_.allowed_topologies.push_back({.match_label_expressions = {{"zone", {}}}});
  auto result = Requirements(claim_);
  ASSERT_FALSE(std::holds_alternative<ProvisionFailure>(result));
  EXPECT_FALSE(std::get<0>(result).has_value());
}

TEST_F(AccessibilityTest, SelectedNodeLeadsTheAggregateOfItsKeys) {
  AddThreeZones();
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_, "node-z2"));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z1", "zone=z2", "zone=z3"));
  EXPECT_THAT(Texts(requirement.preferred()), ElementsAre("zone=z2", "zone=z3", "zone=z1"));
}

TEST_F(AccessibilityTest, SelectedNodeWithAllowedTopologiesLeadsThem) {
  AddThreeZones();
  Allow({"z2", "z3"});
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_, "node-z3"));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z2", "zone=z3"));
  EXPECT_THAT(Texts(requirement.preferred()), ElementsAre("zone=z3", "zone=z2"));
}

TEST_F(AccessibilityTest, SelectedNodeOutsideAllowedTopologiesIsNotInRequisite) {
  AddThreeZones();
  Allow({"z1", "z2"});
  ProvisionFailure failure = FailureOf(Requirements(claim_, "node-z3"));
  EXPECT_EQ(failure.state, ProvisioningState::kNoChange);
  EXPECT_EQ(failure.error.message,
            "error generating accessibility requirements: topology [{zone z3}] from selected node "
            "\"node-z3\" is not in requisite: [[{zone z1}] [{zone z2}]]");
}

TEST_F(AccessibilityTest, StrictTopologyAsksForTheSelectedNodesTermOnly) {
  AddThreeZones();
  options_.strict = true;
  csi::v1::TopologyRequirement requirement = RequirementOf(Requirements(claim_, "node-z2"));
  EXPECT_THAT(Texts(requirement.requisite()), ElementsAre("zone=z2"));
  EXPECT_THAT(Texts(requirement.preferred()), ElementsAre("zone=z2"));
}

TEST_F(AccessibilityTest, StrictTopologyRefusesASelectedNodeOutsideAllowedTopologies) {
  AddThreeZones();
  options_.strict = true;
  Allow({"z1"});
  ProvisionFailure failure = FailureOf(Requirements(claim_, "node-z3"));
  EXPECT_EQ(failure.state, ProvisioningState::kNoChange);
  EXPECT_EQ(failure.error.message,
            "error generating accessibility requirements: selected node '\"node-z3\"' topology "
            "'[{zone z3}]' is not in allowed topologies: [[{zone z1}]]");
}

TEST_F(AccessibilityTest, SelectedNodeWithoutCsiNodeAsksForAnotherNode) {
  AddNode("fresh", {{"zone", "z1"}}, std::nullopt);
  ProvisionFailure failure = FailureOf(Requirements(claim_, "fresh"));
  EXPECT_EQ(failure.state, ProvisioningState::kReschedule);
  EXPECT_EQ(failure.error.message,
            "failed to get selected CSINode fresh: csinode.storage.k8s.io \"fresh\" not found");
}

TEST_F(AccessibilityTest, SelectedNodeWithoutTheDriversKeysIsAnError) {
  AddNode("other", {{"zone", "z1"}}, std::vector<std::string>{"zone"}, "other.example.com");
  ProvisionFailure failure = FailureOf(Requirements(claim_, "other"));
  EXPECT_EQ(failure.state, ProvisioningState::kNoChange);
  EXPECT_EQ(failure.error.message,
            "error generating accessibility requirements: no topology key found for node other");
}

TEST_F(AccessibilityTest, SelectedNodeWithoutTheLabelsOfItsKeysIsAnError) {
  AddNode("unlabelled", {{"rack", "r1"}}, std::vector<std::string>{"zone"});
  ProvisionFailure failure = FailureOf(Requirements(claim_, "unlabelled"));
  EXPECT_EQ(failure.state, ProvisioningState::kNoChange);
  EXPECT_EQ(failure.error.message,
            "error generating accessibility requirements: topology labels from selected node "
            "map[rack:r1] does not match topology keys from CSINode [zone]");
  AddCsiNode("gone", {"zone"});  // a CSINode whose Node is gone
  EXPECT_EQ(FailureOf(Requirements(fakes::PendingClaim("b", "uid-b"), "gone")).error.message,
            "error generating accessibility requirements: topology labels from selected node "
            "map[] does not match topology keys from CSINode [zone]");
}

// lib #152: a retry asks for the place the first attempt asked for, even
// after the Node and CSINode went away; once forgotten, it is asked anew.
TEST_F(AccessibilityTest, RetryKeepsTheFirstAttemptsTopologyUntilForgotten) {
  AddThreeZones();
  csi::v1::TopologyRequirement first = RequirementOf(Requirements(claim_, "node-z2"));
  for (const char* zone : {"z1", "z2", "z3"}) {
    kube::Node node;
    node.metadata.name = std::string("node-") + zone;
    nodes_.Remove(node);
    kube::CSINode csi_node;
    csi_node.metadata.name = node.metadata.name;
    csi_nodes_.Remove(csi_node);
  }
  csi::v1::TopologyRequirement retry = RequirementOf(Requirements(claim_, "node-z2"));
  EXPECT_THAT(Texts(retry.requisite()), ElementsAre("zone=z1", "zone=z2", "zone=z3"));
  EXPECT_THAT(Texts(retry.preferred()), Texts(first.preferred()));
  EXPECT_EQ(memo_.size(), 1u);

  memo_.Forget(claim_.metadata.uid.str());
  EXPECT_EQ(FailureOf(Requirements(claim_, "node-z2")).state, ProvisioningState::kReschedule);
}

TEST(TopologyRecordTest, RoundTripsAndRefusesWhatDoesNotParse) {
  csi::v1::TopologyRequirement requirement;
  auto& requisite = *requirement.add_requisite()->mutable_segments();
  requisite["zone"] = "z1";
  requisite["rack"] = "r1";
  (*requirement.add_preferred()->mutable_segments())["zone"] = "z1";
  const std::string record = TopologyRecord(requirement);
  EXPECT_EQ(record, R"({"preferred":[{"zone":"z1"}],"requisite":[{"rack":"r1","zone":"z1"}]})");
  auto parsed = ParseTopologyRecord(record);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(TopologyRecord(*parsed), record);
  for (const char* bad :
       {"", "{", "[]", R"({"requisite":[]})", R"({"requisite":[1],"preferred":[]})",
        R"({"requisite":[{"zone":1}],"preferred":[]})"}) {
    EXPECT_EQ(ParseTopologyRecord(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace provisioner
