// What CreateVolume carries (docs/provisioner.md §3.3, §3.4, §3.8): the
// class's parameters without the reserved csi.storage.k8s.io/ keys, the
// claim's size, and one volume capability per access mode with the fsType
// and the class's mount options. The deprecated keys still work and, unlike
// the reserved ones, reach the driver; a claim's VolumeAttributesClass
// gives mutable_parameters. The fault driver keeps each request.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/manifest.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

TEST_P(ProvisionerPairTest, ParametersReachCreateVolumeWithoutReservedKeys) {
  const Names n = NamesFor("parameters");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class,
       .provisioner = n.driver,
       .parameters = {{"csi.storage.k8s.io/fstype", "ext4"},
                      {"csi.storage.k8s.io/controller-expand-secret-name", "expand-${pvc.name}"},
                      {"csi.storage.k8s.io/controller-expand-secret-namespace", "${pvc.namespace}"},
                      {"tier", "gold"},
                      {"example.com/zone", "a"}},
       .mount_options = {"noatime"}}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  json claim = CreateClaim({.name = n.claim,
                            .storage_class = n.storage_class,
                            .access_modes = {"ReadWriteOnce", "ReadWriteMany"},
                            .size = "2Gi"});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");

  const std::vector<json> requests = DriverCreateRequestsFor(pv_name);
  ASSERT_FALSE(requests.empty()) << "no CreateVolume named " << pv_name;
  for (json request : requests) {
    EXPECT_EQ(request["parameters"], json({{"tier", "gold"}, {"example.com/zone", "a"}}));
    EXPECT_EQ(request["capacity_range"]["required_bytes"], 2LL << 30) << request.dump();
    EXPECT_EQ(request["secrets"], json::array());
    const json mount = {{"fs_type", "ext4"}, {"mount_flags", {"noatime"}}};
    EXPECT_EQ(
        request["volume_capabilities"],
        json::array({{{"mount", mount}, {"access_mode", {{"mode", "SINGLE_NODE_WRITER"}}}},
                     {{"mount", mount}, {"access_mode", {{"mode", "MULTI_NODE_MULTI_WRITER"}}}}}))
        << request.dump();
  }
  json pv = GetPv(pv_name);
  ASSERT_TRUE(pv.is_object()) << "no PV " << pv_name;
  json& csi = pv["spec"]["csi"];
  EXPECT_EQ(csi["fsType"], "ext4");
  EXPECT_EQ(csi["controllerExpandSecretRef"],
            json({{"name", "expand-" + n.claim}, {"namespace", "default"}}));
  EXPECT_EQ(pv["spec"]["capacity"]["storage"], "2Gi");
  json attributes = csi["volumeAttributes"];
  attributes.erase(kProvisionerIdentity);
  EXPECT_EQ(attributes, json({{"createdBy", "fault-csi-driver"}})) << "the driver's volume context";
}

// §3.3 step 6, §3.4: the deprecated "fstype" and csiNodePublishSecret* keys
// set the PV's fsType and secret reference, and stay in the parameters.
TEST_P(ProvisionerPairTest, DeprecatedKeysWorkAndReachTheDriver) {
  const Names n = NamesFor("deprecated");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver));
  const std::map<std::string, std::string> parameters = {
      {"fstype", "xfs"},
      {"csiNodePublishSecretName", "publish"},
      {"csiNodePublishSecretNamespace", "default"}};
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .parameters = parameters}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");

  const std::vector<json> requests = DriverCreateRequestsFor(pv_name);
  EXPECT_FALSE(requests.empty()) << "no CreateVolume named " << pv_name;
  for (json request : requests) {
    EXPECT_EQ(request["parameters"], json(parameters));
    EXPECT_EQ(request["volume_capabilities"][0]["mount"]["fs_type"], "xfs") << request.dump();
  }
  json pv = GetPv(pv_name);
  ASSERT_TRUE(pv.is_object()) << "no PV " << pv_name;
  EXPECT_EQ(pv["spec"]["csi"]["fsType"], "xfs");
  EXPECT_EQ(pv["spec"]["csi"]["nodePublishSecretRef"],
            json({{"name", "publish"}, {"namespace", "default"}}));
}

}  // namespace
// §3.3 step 11: a claim's VolumeAttributesClass of the driver gives
// CreateVolume its mutable_parameters and the PV its class; one of another
// driver gets upstream's Event and no CreateVolume. (Upstream's sample RBAC
// has no rule for the class; the operator grants `get`, as here.)
TEST_P(ProvisionerPairTest, VolumeAttributesClassGivesCreateVolumeItsMutableParameters) {
  const Names n = NamesFor("vac");
  ASSERT_NO_FATAL_FAILURE(
      StartFaultDriver(n.driver, {"--capabilities=PUBLISH_UNPUBLISH_VOLUME,MODIFY_VOLUME"}));
  const std::string grant = Unique("csi-provisioner-vac-read");
  ASSERT_TRUE(
      testsupport::ApplyManifest(*admin_,
                                 fmt::format(R"(kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: {0}
rules:
  - apiGroups: ["storage.k8s.io"]
    resources: ["volumeattributesclasses"]
    verbs: ["get"]
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: {0}
subjects:
  - kind: ServiceAccount
    name: {1}
    namespace: {2}
roleRef:
  kind: ClusterRole
  name: {0}
  apiGroup: rbac.authorization.k8s.io
)",
                                             grant, kProvisionerAccount, kProvisionerNamespace),
                                 "VolumeAttributesClass read grant")
          .ok());
  const std::string ours = Unique("gold"), theirs = Unique("theirs");
  for (const auto& [name, driver] :
       {std::pair{ours, n.driver}, std::pair{theirs, std::string("other.example.com")}}) {
    json vac = {{"apiVersion", "storage.k8s.io/v1"},
                {"kind", "VolumeAttributesClass"},
                {"metadata", {{"name", name}}},
                {"driverName", driver},
                {"parameters", {{"iops", "3000"}}}};
    ASSERT_TRUE(admin_
                    ->Request("POST", "/apis/storage.k8s.io/v1/volumeattributesclasses", vac.dump(),
                              "application/json")
                    .ok());
  }
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class, .provisioner = n.driver}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);

  json claim =
      CreateClaim({.name = n.claim, .storage_class = n.storage_class, .attributes_class = ours});
  json refused = CreateClaim(
      {.name = n.claim + "-theirs", .storage_class = n.storage_class, .attributes_class = theirs});
  ASSERT_FALSE(claim.is_null());
  ASSERT_FALSE(refused.is_null());
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");
  std::vector<json> requests = DriverCreateRequestsFor(PvNameOf(claim));
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].value("mutable_parameters", json::object()), (json{{"iops", "3000"}}));
  EXPECT_EQ(GetPv(PvNameOf(claim)).value(json::json_pointer("/spec/volumeAttributesClassName"), ""),
            ours);

  std::optional<kube::Event> failed =
      AwaitEvent("default", "PersistentVolumeClaim", n.claim + "-theirs", "ProvisioningFailed");
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->message, "VAC " + theirs +
                                 " referenced in PVC is for driver other.example.com which does "
                                 "not match driver name " +
                                 n.driver);
  EXPECT_TRUE(DriverCreateRequestsFor(PvNameOf(refused)).empty());
}

}  // namespace provisioner_it
