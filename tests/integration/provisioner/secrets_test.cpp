// The class's secrets (docs/provisioner.md §3.5, §3.9, §4.2): the
// provisioner resolves the templates of the provisioner secret, reads it and
// hands its data to CreateVolume, names it in the PV's deletion-secret
// annotations and hands it to DeleteVolume again; the other kinds become the
// PV's secret references, unread. A value never reaches its log. The fault
// driver keeps the secret keys each call carried.
#include <gtest/gtest.h>

#include "tests/integration/provisioner/provisioner_fixture.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

constexpr char kSecretValue[] = "hunter2-provisioner-secret";

TEST_P(ProvisionerPairTest, ProvisionerSecretFromClassTemplatesReachesCreateAndDeleteNotTheLog) {
  const Names n = NamesFor("secrets");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(GrantSecretRead());
  ASSERT_NO_FATAL_FAILURE(
      CreateSecret(kSecretsNamespace, n.claim + "-creds", {{"password", kSecretValue}}));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class,
       .provisioner = n.driver,
       .parameters = {
           {"csi.storage.k8s.io/provisioner-secret-name", "${pvc.name}-creds"},
           {"csi.storage.k8s.io/provisioner-secret-namespace", "${pvc.namespace}"},
           {"csi.storage.k8s.io/controller-publish-secret-name", "publish-${pv.name}"},
           {"csi.storage.k8s.io/controller-publish-secret-namespace", "${pvc.namespace}"},
           {"csi.storage.k8s.io/node-stage-secret-name", "stage-${pvc.name}"},
           {"csi.storage.k8s.io/node-stage-secret-namespace", "${pv.name}"},
           {"tier", "gold"}}}));
  testsupport::Process* provisioner = StartProvisionerUnderTest();
  ASSERT_NE(provisioner, nullptr);
  const json claim =
      CreateClaim({.name = n.claim, .storage_class = n.storage_class, .ns = kSecretsNamespace});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);
  ASSERT_EQ(PhaseOf(AwaitBound(kSecretsNamespace, n.claim)), "Bound");

  json pv = GetPv(pv_name);
  ASSERT_TRUE(pv.is_object()) << "no PV " << pv_name;
  EXPECT_EQ(AnnotationOf(pv, kDeletionSecretName), n.claim + "-creds");
  EXPECT_EQ(AnnotationOf(pv, kDeletionSecretNamespace), kSecretsNamespace);
  json& csi = pv["spec"]["csi"];
  EXPECT_EQ(csi["controllerPublishSecretRef"],
            json({{"name", "publish-" + pv_name}, {"namespace", kSecretsNamespace}}));
  EXPECT_EQ(csi["nodeStageSecretRef"],
            json({{"name", "stage-" + n.claim}, {"namespace", pv_name}}));
  EXPECT_FALSE(csi.contains("nodePublishSecretRef")) << csi.dump();
  EXPECT_EQ(csi["volumeHandle"], "vol-" + pv_name);

  json created = DriverVolumeRecord(pv_name);
  ASSERT_TRUE(created.is_object()) << DriverState().dump(2);
  EXPECT_EQ(created["secrets"], json::array({"password"}));
  EXPECT_EQ(created["parameters"], json({{"tier", "gold"}}));

  ASSERT_NO_FATAL_FAILURE(DeleteClaim(kSecretsNamespace, n.claim));
  ASSERT_TRUE(AwaitPvGone(pv_name)) << "PV not deleted: " << GetPv(pv_name).dump(2);
  // At least one DeleteVolume (upstream may send two, §4.2), each with the secret.
  const std::vector<json> deletes = DriverRequests("DeleteVolume");
  EXPECT_FALSE(deletes.empty()) << "no DeleteVolume";
  for (json request : deletes) {
    EXPECT_EQ(request["volume_id"], "vol-" + pv_name);
    EXPECT_EQ(request["secrets"], json::array({"password"})) << request.dump();
  }
  EXPECT_EQ(DriverState()["existing_volumes"], json::array());
  EXPECT_EQ(LogOf(*provisioner).find(kSecretValue), std::string::npos)
      << "the secret's value is in the provisioner's log";
}

}  // namespace
}  // namespace provisioner_it
