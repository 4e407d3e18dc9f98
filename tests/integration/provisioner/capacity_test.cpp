// Storage capacity tracking end to end (docs/provisioner.md §5): the fault
// driver answers GetCapacity per zone (GET_CAPACITY, faults.json rules
// filtered by segment), kubelet-less Nodes in two zones register the zone
// key for it, and the provisioner runs with --enable-capacity in namespace
// "default" (where its RBAC Role grants CSIStorageCapacity writes). The
// same checks run against upstream's provisioner and ours.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/cluster_objects.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

constexpr char kCapacityZoneKey[] = "topology.capacity.csi.test/zone";
// Which test made a Node: the zones repeat from test to test.
constexpr char kCapacityTestKey[] = "capacity.csi.test/test";
constexpr char kCapacitiesPath[] =
    "/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities";

// The fault driver's GetCapacity answers: zone-a and zone-b as given.
json CapacityFaults(const std::string& zone_a, const std::string& zone_b) {
  auto rule = [](const std::string& zone, const std::string& bytes) {
    return json{{"segment", std::string(kCapacityZoneKey) + "=" + zone},
                {"available_bytes", std::stoll(bytes)}};
  };
  json zone_b_rule = rule("zone-b", zone_b);
  zone_b_rule["maximum_volume_size"] = int64_t{10} << 30;
  return {{"GetCapacity", json::array({rule("zone-a", zone_a), zone_b_rule})}};
}

// The capacity set-up over a fixture of the provisioner tests.
template <class Base>
class CapacityFixture : public Base {
 protected:
  using Base::admin_;
  using typename Base::Names;
  // The fault driver with topology and GET_CAPACITY answering `faults`,
  // two Nodes (zone-a, zone-b) registered for it, a WaitForFirstConsumer
  // class of it and an Immediate one.
  void StartCapacityDriver(const Names& names, const json& faults,
                           const json& allowed_topologies = nullptr) {
    ASSERT_NO_FATAL_FAILURE(this->StartFaultDriver(
        names.driver,
        {"--accessible-topology", "--capabilities=PUBLISH_UNPUBLISH_VOLUME,GET_CAPACITY"}));
    this->WriteDriverFaults(faults);
    for (const char* zone : {"zone-a", "zone-b"}) {
      const std::string node = names.claim + "-" + zone;
      ASSERT_TRUE(testsupport::CreateNode(*admin_, {.name = node,
                                                    .labels = {{kCapacityZoneKey, zone},
                                                               {kCapacityTestKey, names.claim}}})
                      .ok());
      auto registered =
          testsupport::CreateCsiNode(*admin_, node, names.driver, node + "-id", {kCapacityZoneKey});
      ASSERT_TRUE(registered.ok()) << registered.error().message;
    }
    ASSERT_NO_FATAL_FAILURE(this->CreateStorageClass({.name = names.storage_class,
                                                      .provisioner = names.driver,
                                                      .parameters = {{"tier", "gold"}},
                                                      .binding_mode = "WaitForFirstConsumer",
                                                      .allowed_topologies = allowed_topologies}));
    ASSERT_NO_FATAL_FAILURE(this->CreateStorageClass(
        {.name = names.storage_class + "-now", .provisioner = names.driver}));
  }

  testsupport::Process* StartCapacityProvisioner(const ProvisionerUnderTest& provisioner,
                                                 std::vector<std::string> args,
                                                 const std::string& pod_name = "") {
    args.insert(args.begin(), {"--enable-capacity", "--capacity-poll-interval=2s"});
    std::vector<std::pair<std::string, std::string>> env = {{"NAMESPACE", "default"}};
    if (!pod_name.empty()) env.emplace_back("POD_NAME", pod_name);
    return this->StartProvisionerOf(provisioner, std::move(args), std::move(env));
  }

  // The CSIStorageCapacity objects labelled for `driver`.
  static std::vector<json> CapacitiesOf(const std::string& driver) {
    json list = Base::GetJson(std::string(kCapacitiesPath) +
                              "?labelSelector=csi.storage.k8s.io%2Fdrivername%3D" + driver);
    if (!list.is_object()) return {};
    return list.value("items", json::array()).get<std::vector<json>>();
  }
  // The object of `driver` for `storage_class` in `zone`, null if none.
  static json CapacityIn(const std::string& driver, const std::string& storage_class,
                         const std::string& zone) {
    for (const json& object : CapacitiesOf(driver)) {
      if (object.value("storageClassName", "") != storage_class) continue;
      json labels = object.value(json::json_pointer("/nodeTopology/matchLabels"), json::object());
      if (labels == json{{kCapacityZoneKey, zone}}) return object;
    }
    return nullptr;
  }
  static bool AwaitCapacity(const std::string& driver, const std::string& storage_class,
                            const std::string& zone, const std::string& capacity) {
    return Base::Eventually([&] {
      json object = CapacityIn(driver, storage_class, zone);
      return object.is_object() && object.value("capacity", "") == capacity;
    });
  }
};

class CapacityTest : public CapacityFixture<ProvisionerPairTest> {
 protected:
  testsupport::Process* StartCapacityProvisioner(std::vector<std::string> args,
                                                 const std::string& pod_name = "") {
    return CapacityFixture::StartCapacityProvisioner(GetParam(), std::move(args), pod_name);
  }
};

// §5: one object per (WaitForFirstConsumer class, zone) with upstream's
// name prefix, labels, topology, capacity and maximum size; the driver's
// next answer changes it at the next poll; Immediate classes get none; the
// objects go with their class. GetCapacity gets the class's parameters and
// the zone, no volume capabilities.
TEST_P(CapacityTest, ObjectsFollowTheDriversAnswerAndGoWithTheClass) {
  const Names n = NamesFor("capacity");
  ASSERT_NO_FATAL_FAILURE(StartCapacityDriver(n, CapacityFaults("107374182400", "53687091200")));
  ASSERT_NE(StartCapacityProvisioner({"--capacity-ownerref-level=-1"}), nullptr);

  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-a", "100Gi"));
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-b", "50Gi"));
  json zone_b = CapacityIn(n.driver, n.storage_class, "zone-b");
  EXPECT_EQ(zone_b.value("maximumVolumeSize", ""), "10Gi");
  EXPECT_TRUE(zone_b.value("metadata", json::object()).value("name", "").starts_with("csisc-"));
  EXPECT_EQ(zone_b.value(json::json_pointer("/metadata/labels"), json::object()),
            (json{{"csi.storage.k8s.io/drivername", n.driver},
                  {"csi.storage.k8s.io/managed-by", "external-provisioner"}}));
  EXPECT_FALSE(zone_b.value("metadata", json::object()).contains("ownerReferences"));
  EXPECT_FALSE(CapacityIn(n.driver, n.storage_class, "zone-a").contains("maximumVolumeSize"));

  std::vector<json> requests = DriverRequests("GetCapacity");
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests.back().value("parameters", json::object()), (json{{"tier", "gold"}}));
  EXPECT_EQ(requests.back().value("volume_capabilities", -1), 0);

  WriteDriverFaults(CapacityFaults("214748364800", "53687091200"));
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-a", "200Gi"));
  // By now every item was polled at least twice: the Immediate class has none.
  for (const json& object : CapacitiesOf(n.driver)) {
    EXPECT_EQ(object.value("storageClassName", ""), n.storage_class) << object.dump();
  }
  EXPECT_EQ(CapacitiesOf(n.driver).size(), 2u);

  ASSERT_TRUE(
      admin_->Request("DELETE", "/apis/storage.k8s.io/v1/storageclasses/" + n.storage_class).ok());
  EXPECT_TRUE(Eventually([&] { return CapacitiesOf(n.driver).empty(); }));
}

// §5 "Owner", "Informer": with --capacity-ownerref-level=0 the owner is the
// provisioner's Pod; an object someone deletes is made again, and a
// labelled object that matches no item is deleted.
TEST_P(CapacityTest, OwnedByThePodRecreatedWhenDeletedObsoleteOnesRemoved) {
  const Names n = NamesFor("capacity-owner");
  ASSERT_NO_FATAL_FAILURE(StartCapacityDriver(n, CapacityFaults("1073741824", "2147483648")));
  const std::string pod = Unique("capacity-provisioner-pod");
  // Pending for ever: no node carries this label.
  ASSERT_TRUE(
      testsupport::CreatePod(*admin_, {.name = pod, .node_selector = {{"no-such", "node"}}}).ok());
  json pod_object = GetJson("/api/v1/namespaces/default/pods/" + pod);
  json stray = {{"apiVersion", "storage.k8s.io/v1"},
                {"kind", "CSIStorageCapacity"},
                {"metadata",
                 {{"name", Unique("stray")},
                  {"labels",
                   {{"csi.storage.k8s.io/drivername", n.driver},
                    {"csi.storage.k8s.io/managed-by", "external-provisioner"}}}}},
                {"storageClassName", "no-such-class"},
                {"nodeTopology", {{"matchLabels", {{kCapacityZoneKey, "zone-a"}}}}},
                {"capacity", "1Gi"}};
  ASSERT_TRUE(admin_->Request("POST", kCapacitiesPath, stray.dump(), "application/json").ok());

  ASSERT_NE(StartCapacityProvisioner({"--capacity-ownerref-level=0"}, pod), nullptr);
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-a", "1Gi"));
  json zone_a = CapacityIn(n.driver, n.storage_class, "zone-a");
  json expected_owner = {{"apiVersion", "v1"},
                         {"kind", "Pod"},
                         {"name", pod},
                         {"uid", pod_object.value(json::json_pointer("/metadata/uid"), "")},
                         {"controller", true}};
  EXPECT_EQ(zone_a.value(json::json_pointer("/metadata/ownerReferences"), json::array()),
            json::array({expected_owner}));
  EXPECT_TRUE(Eventually(
      [&] { return GetJson(std::string(kCapacitiesPath) + "/" + Unique("stray")).is_null(); }));

  const std::string old_name = zone_a.value(json::json_pointer("/metadata/name"), "");
  ASSERT_TRUE(admin_->Request("DELETE", std::string(kCapacitiesPath) + "/" + old_name).ok());
  EXPECT_TRUE(Eventually([&] {
    json again = CapacityIn(n.driver, n.storage_class, "zone-a");
    return again.is_object() && again.value(json::json_pointer("/metadata/name"), "") != old_name;
  }));
}

// §6: the capacity gauges count the items and their objects.
TEST_P(CapacityTest, GaugesCountTheItemsAndTheirObjects) {
  const Names n = NamesFor("capacity-metrics");
  ASSERT_NO_FATAL_FAILURE(StartCapacityDriver(n, CapacityFaults("1073741824", "1073741824")));
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok());
  ASSERT_NE(StartCapacityProvisioner({"--capacity-ownerref-level=-1",
                                      "--http-endpoint=127.0.0.1:" + std::to_string(*port)}),
            nullptr);
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-b", "1Gi"));
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-a", "1Gi"));
  std::string body;
  EXPECT_TRUE(Eventually([&] {
    body = testsupport::HttpBody(testsupport::HttpGet(*port, "/metrics"));
    return body.find("\ncsistoragecapacities_desired_current 2\n") != std::string::npos;
  })) << body;
  EXPECT_NE(body.find("\ncsistoragecapacities_desired_goal 2\n"), std::string::npos) << body;
  EXPECT_NE(body.find("\ncsistoragecapacities_obsolete 0\n"), std::string::npos) << body;
}

// §5's purpose: kube-scheduler places a WaitForFirstConsumer claim of a
// CSIDriver with storageCapacity only where a published object has room;
// zone-a reports none, so the Pod, free to go to either of the test's two
// Nodes, lands in zone-b and its volume is made there.
TEST_P(CapacityTest, SchedulerPlacesTheClaimWhereTheDriverReportsRoom) {
  const Names n = NamesFor("capacity-sched");
  ASSERT_NO_FATAL_FAILURE(StartCapacityDriver(n, CapacityFaults("0", "107374182400")));
  json csi_driver = {{"apiVersion", "storage.k8s.io/v1"},
                     {"kind", "CSIDriver"},
                     {"metadata", {{"name", n.driver}}},
                     {"spec", {{"attachRequired", false}, {"storageCapacity", true}}}};
  ASSERT_TRUE(admin_
                  ->Request("POST", "/apis/storage.k8s.io/v1/csidrivers", csi_driver.dump(),
                            "application/json")
                  .ok());
  ASSERT_NE(StartCapacityProvisioner({"--capacity-ownerref-level=-1"}), nullptr);
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-a", "0"));
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-b", "100Gi"));

  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_FALSE(claim.is_null());
  ASSERT_TRUE(testsupport::CreatePod(*admin_, {.name = Unique("capacity-sched-pod"),
                                               .claims = {n.claim},
                                               .node_selector = {{kCapacityTestKey, n.claim}}})
                  .ok());
  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump();
  EXPECT_EQ(AnnotationOf(bound, "volume.kubernetes.io/selected-node"), n.claim + "-zone-b");
}

INSTANTIATE_PROVISIONER_PAIRS(CapacityTest);
INSTANTIATE_PROVISIONER_IN_CSI_SIDECARS(CapacityTest);

class CapacityOursOnlyTest : public CapacityFixture<OursOnlyTest> {};

// §9.5 (#1162): a zone the class's allowedTopologies rules out is never
// asked about and gets no object (upstream publishes one for it).
TEST_F(CapacityOursOnlyTest, ZoneTheClassRulesOutIsNeverAskedAbout) {
  const Names n = OwnNames("capacity-allowed", "ours");
  json only_zone_a = json::array(
      {{{"matchLabelExpressions",
         json::array({{{"key", kCapacityZoneKey}, {"values", json::array({"zone-a"})}}})}}});
  ASSERT_NO_FATAL_FAILURE(
      StartCapacityDriver(n, CapacityFaults("1073741824", "2147483648"), only_zone_a));
  ASSERT_NE(StartCapacityProvisioner(OurProvisioner(), {"--capacity-ownerref-level=-1"}), nullptr);
  ASSERT_TRUE(AwaitCapacity(n.driver, n.storage_class, "zone-a", "1Gi"));
  // Two polls later zone-a was asked at least three times, zone-b never.
  ASSERT_TRUE(Eventually([&] {
    int asked = 0;
    for (const json& request : DriverRequests("GetCapacity")) {
      asked += request.value("segment", "") == std::string(kCapacityZoneKey) + "=zone-a";
    }
    return asked >= 3;
  }));
  for (const json& request : DriverRequests("GetCapacity")) {
    EXPECT_NE(request.value("segment", ""), std::string(kCapacityZoneKey) + "=zone-b");
  }
  EXPECT_EQ(CapacitiesOf(n.driver).size(), 1u);
}

}  // namespace
}  // namespace provisioner_it
