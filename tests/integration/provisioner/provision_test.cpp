// A claim of a class whose provisioner is the driver gets a volume: the
// provisioner calls CreateVolume and writes the PV pvc-<claim UID> with every
// field docs/provisioner.md §3.9 lists, kube-controller-manager binds the two,
// and the claim carries the provisioner's Events (§3.2, §3.10). The
// provisioner is the test parameter: upstream's and ours pass the same checks.
#include <gtest/gtest.h>

#include <regex>

#include "base/file.h"
#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/files.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

// The provisioner's identity in a PV's volume attributes:
// <unix milliseconds>-<random 0..9999>-<driver> (§2.4 step 7).
void ExpectIdentityOf(const std::string& driver, const json& attributes) {
  ASSERT_TRUE(attributes.contains(kProvisionerIdentity)) << attributes.dump();
  const std::string identity = attributes[kProvisionerIdentity];
  std::smatch parts;
  ASSERT_TRUE(std::regex_match(identity, parts, std::regex(R"(^(\d+)-(\d{1,4})-(.+)$)")))
      << identity;
  EXPECT_EQ(parts[3], driver) << identity;
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const long long started_ms = std::stoll(parts[1]);
  EXPECT_LE(started_ms, now_ms) << identity;
  EXPECT_GT(started_ms, now_ms - 10 * 60 * 1000) << "not the start of this run: " << identity;
}

// The one volume the driver holds for PV `pv_name` (the mock's volume
// context names it): its ID, or "" (and the test fails).
std::string DriverVolumeNamed(
    const std::map<std::string, std::map<std::string, std::string>>& volumes,
    const std::string& pv_name) {
  std::vector<std::string> ids;
  for (const auto& [id, context] : volumes) {
    auto name = context.find("name");
    if (name != context.end() && name->second == pv_name) ids.push_back(id);
  }
  EXPECT_EQ(ids.size(), 1u) << "driver volumes named " << pv_name;
  return ids.size() == 1 ? ids.front() : "";
}

TEST_P(ProvisionerPairTest, ClaimGetsABoundPvWithEveryFieldTheProvisionerWrites) {
  const Names n = NamesFor("provision");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class,
                                              .provisioner = n.driver,
                                              .parameters = {{"csi.storage.k8s.io/fstype", "xfs"}},
                                              .reclaim_policy = "Delete",
                                              .mount_options = {"noatime", "nodiratime"}}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  json claim = CreateClaim({.name = n.claim,
                            .storage_class = n.storage_class,
                            .access_modes = {"ReadWriteOnce"},
                            .size = "100Mi"});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);

  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump(2);
  EXPECT_EQ(bound["spec"]["volumeName"], pv_name);
  json pv = GetPv(pv_name);
  ASSERT_TRUE(pv.is_object()) << "no PV " << pv_name;
  RecordProperty("pv", pv.dump());

  EXPECT_EQ(pv["metadata"]["finalizers"], json::array({kPvFinalizer}));
  EXPECT_EQ(pv["metadata"]["annotations"], json({{kProvisionedBy, n.driver},
                                                 {kDeletionSecretName, ""},
                                                 {kDeletionSecretNamespace, ""}}));
  json& spec = pv["spec"];
  EXPECT_EQ(spec["accessModes"], json::array({"ReadWriteOnce"}));
  EXPECT_EQ(spec["capacity"], json({{"storage", "100Mi"}}));
  EXPECT_EQ(spec["persistentVolumeReclaimPolicy"], "Delete");
  EXPECT_EQ(spec["storageClassName"], n.storage_class);
  EXPECT_EQ(spec["mountOptions"], json::array({"noatime", "nodiratime"}));
  EXPECT_EQ(spec["volumeMode"], "Filesystem");
  EXPECT_FALSE(spec.contains("nodeAffinity")) << "the mock driver reports no topology";
  EXPECT_EQ(spec["claimRef"]["apiVersion"], "v1");
  EXPECT_EQ(spec["claimRef"]["kind"], "PersistentVolumeClaim");
  EXPECT_EQ(spec["claimRef"]["namespace"], "default");
  EXPECT_EQ(spec["claimRef"]["name"], n.claim);
  EXPECT_EQ(spec["claimRef"]["uid"], claim["metadata"]["uid"]);
  const json& version = spec["claimRef"]["resourceVersion"];
  EXPECT_TRUE(version.is_string() && !version.get<std::string>().empty())
      << "claimRef without the claim's resourceVersion: " << spec["claimRef"].dump();

  json& csi = spec["csi"];
  EXPECT_EQ(csi["driver"], n.driver);
  EXPECT_EQ(csi["fsType"], "xfs");
  const std::string handle = DriverVolumeNamed(DriverVolumes(), pv_name);
  EXPECT_EQ(csi["volumeHandle"], handle);
  ASSERT_NO_FATAL_FAILURE(ExpectIdentityOf(n.driver, csi["volumeAttributes"]));
  // The identity, then the driver's volume context.
  json attributes = csi["volumeAttributes"];
  attributes.erase(kProvisionerIdentity);
  EXPECT_EQ(attributes, json({{"name", pv_name}}));
  for (const char* not_asked :
       {"controllerPublishSecretRef", "nodeStageSecretRef", "nodePublishSecretRef",
        "controllerExpandSecretRef", "nodeExpandSecretRef", "readOnly"}) {
    EXPECT_FALSE(csi.contains(not_asked)) << not_asked << " in " << csi.dump();
  }
  EXPECT_EQ(pv["status"]["phase"], "Bound");

  auto provisioning = AwaitEvent("default", "PersistentVolumeClaim", n.claim, "Provisioning");
  ASSERT_TRUE(provisioning.has_value()) << "no Provisioning Event";
  EXPECT_EQ(provisioning->type, "Normal");
  EXPECT_EQ(provisioning->message,
            "External provisioner is provisioning volume for claim \"default/" + n.claim + "\"");
  auto succeeded = AwaitEvent("default", "PersistentVolumeClaim", n.claim, "ProvisioningSucceeded");
  ASSERT_TRUE(succeeded.has_value()) << "no ProvisioningSucceeded Event";
  EXPECT_EQ(succeeded->type, "Normal");
  EXPECT_EQ(succeeded->message, "Successfully provisioned volume " + pv_name);
  std::string why;
  EXPECT_TRUE(FromProvisionController(*provisioning, n.driver, &why)) << why;
  EXPECT_TRUE(FromProvisionController(*succeeded, n.driver, &why)) << why;
  for (const kube::Event& event : EventsAbout("default", "PersistentVolumeClaim", n.claim)) {
    EXPECT_NE(event.type, "Warning") << event.reason << ": " << event.message;
  }
}

// A Block claim: the PV is Block, without fsType; the class's Retain policy
// and the claim's access modes are copied.
TEST_P(ProvisionerPairTest, BlockClaimGetsABlockPvWithoutFsType) {
  const Names n = NamesFor("block");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class,
                                              .provisioner = n.driver,
                                              .parameters = {{"csi.storage.k8s.io/fstype", "xfs"}},
                                              .reclaim_policy = "Retain"}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  json claim = CreateClaim({.name = n.claim,
                            .storage_class = n.storage_class,
                            .access_modes = {"ReadWriteMany", "ReadOnlyMany"},
                            .size = "1Gi",
                            .volume_mode = "Block"});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);

  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump(2);
  json pv = GetPv(pv_name);
  ASSERT_TRUE(pv.is_object()) << "no PV " << pv_name;
  RecordProperty("pv", pv.dump());
  json& spec = pv["spec"];
  EXPECT_EQ(spec["volumeMode"], "Block");
  EXPECT_EQ(spec["accessModes"], json::array({"ReadWriteMany", "ReadOnlyMany"}));
  EXPECT_EQ(spec["capacity"], json({{"storage", "1Gi"}}));
  EXPECT_EQ(spec["persistentVolumeReclaimPolicy"], "Retain");
  EXPECT_FALSE(spec.contains("mountOptions")) << spec.dump();
  EXPECT_FALSE(spec["csi"].contains("fsType")) << spec["csi"].dump();
  EXPECT_EQ(spec["csi"]["volumeHandle"], DriverVolumeNamed(DriverVolumes(), pv_name));
  EXPECT_EQ(AnnotationOf(pv, kProvisionedBy), n.driver);
}

// §2.1 --master: the API server's URL in place of the kubeconfig's (whose
// server here answers nothing); the kubeconfig's credentials still serve.
TEST_P(ProvisionerPairTest, MasterNamesTheServerInPlaceOfTheKubeconfigs) {
  const Names n = NamesFor("master");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .reclaim_policy = "Retain"}));
  base::Result<std::string> kubeconfig = base::ReadFile(provisioner_kubeconfig_);
  ASSERT_TRUE(kubeconfig.ok()) << kubeconfig.error().message;
  std::smatch server;
  ASSERT_TRUE(std::regex_search(*kubeconfig, server, std::regex(R"(server: (https://\S+))")));
  const std::string master = server[1];
  const std::string elsewhere = work_dir() + "/elsewhere.kubeconfig";
  ASSERT_TRUE(testsupport::WriteFile(
                  elsewhere, std::regex_replace(*kubeconfig, std::regex(R"(server: https://\S+)"),
                                                "server: https://127.0.0.1:1"))
                  .ok());
  ASSERT_NE(StartProvisionerUnderTest({"--kubeconfig=" + elsewhere, "--master=" + master}),
            nullptr);
  json claim = CreateClaim({.name = n.claim,
                            .storage_class = n.storage_class,
                            .access_modes = {"ReadWriteOnce"},
                            .size = "1Gi"});
  ASSERT_TRUE(claim.is_object());
  json bound = AwaitBound("default", n.claim);
  EXPECT_EQ(PhaseOf(bound), "Bound") << bound.dump(2);
}

INSTANTIATE_PROVISIONER_PAIRS(ProvisionerPairTest);
INSTANTIATE_PROVISIONER_IN_CSI_SIDECARS(ProvisionerPairTest);

}  // namespace
}  // namespace provisioner_it
