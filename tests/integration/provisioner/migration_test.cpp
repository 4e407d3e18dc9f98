// docs/provisioner.md §3.13, in-tree migration, for upstream's provisioner
// and ours: a provisioner of ebs.csi.aws.com provisions the claims of a
// kubernetes.io/aws-ebs class. kube-controller-manager hands the claim over
// (v1.36, whose in-tree EBS plugin is gone: the storage-provisioner
// annotations name the driver; it adds no migrated-to to the claim);
// the class reaches CreateVolume translated (fsType as the fstype key,
// iopsPerGB with allowautoiopspergbincrease); the PV is written in in-tree
// form (awsElasticBlockStore) with provisioned-by naming the in-tree plugin;
// its deletion translates it back and sends DeleteVolume for the same
// volume. Every CSI call is counted with migrated="true".
// (EBS rather than GCE PD: the fault driver's volume IDs, vol-<name>, are
// valid EBS IDs, while a GCE PD ID must be a projects/.../disks/... path.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace provisioner_it {
namespace migration_it {
namespace {

using nlohmann::json;

constexpr char kEbsDriver[] = "ebs.csi.aws.com";
constexpr char kEbsPlugin[] = "kubernetes.io/aws-ebs";

class MigrationTest : public ProvisionerPairTest {
 protected:
  // The CSI calls of `method` counted with migrated="true", once there is one.
  static void ExpectMigratedSeries(int port, const std::string& method) {
    const std::vector<std::string> labels = {
        "driver_name=\"" + std::string(kEbsDriver) + "\"", "grpc_status_code=\"OK\"",
        "method_name=\"/csi.v1.Controller/" + method + "\"", "migrated=\"true\""};
    const std::string body = testsupport::AwaitSeries(port, "csi_sidecar_operations_seconds_count",
                                                      labels, kAwaitTimeout);
    EXPECT_TRUE(testsupport::HasSeries(body, "csi_sidecar_operations_seconds_count", labels))
        << method << " not counted as migrated:\n"
        << body;
  }
};

TEST_P(MigrationTest, InTreeEbsClassIsProvisionedTranslatedAndItsPvWrittenInTree) {
  const Names n = NamesFor("migration");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(kEbsDriver));
  ASSERT_NO_FATAL_FAILURE(
      CreateStorageClass({.name = n.storage_class,
                          .provisioner = kEbsPlugin,
                          .parameters = {{"type", "gp3"}, {"fsType", "xfs"}, {"iopsPerGB", "10"}},
                          .reclaim_policy = "Delete"}));
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok());
  ASSERT_NE(StartProvisionerUnderTest({"--http-endpoint=127.0.0.1:" + std::to_string(*port)}),
            nullptr);
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);
  const std::string volume_id = "vol-" + pv_name;

  json bound = AwaitBound("default", n.claim);
  ASSERT_EQ(PhaseOf(bound), "Bound") << bound.dump(2);
  EXPECT_EQ(AnnotationOf(bound, "volume.kubernetes.io/storage-provisioner"), kEbsDriver);

  const std::vector<json> requests = DriverCreateRequestsFor(pv_name);
  ASSERT_EQ(requests.size(), 1u) << "CreateVolume calls named " << pv_name;
  EXPECT_EQ(requests[0]["parameters"],
            json({{"type", "gp3"}, {"iopsPerGB", "10"}, {"allowautoiopspergbincrease", "true"}}));
  EXPECT_EQ(requests[0]["volume_capabilities"][0]["mount"]["fs_type"], "xfs") << requests[0].dump();

  const json pv = GetPv(pv_name);
  ASSERT_TRUE(pv.is_object()) << "no PV " << pv_name;
  EXPECT_FALSE(pv["spec"].contains("csi")) << pv.dump(2);
  EXPECT_EQ(pv["spec"]["awsElasticBlockStore"], json({{"volumeID", volume_id}, {"fsType", "xfs"}}))
      << pv.dump(2);
  EXPECT_EQ(AnnotationOf(pv, kProvisionedBy), kEbsPlugin);
  ExpectMigratedSeries(*port, "CreateVolume");

  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", n.claim));
  ASSERT_TRUE(AwaitPvGone(pv_name)) << "PV " << pv_name << " stays: " << GetPv(pv_name).dump(2);
  std::vector<std::string> deleted;
  for (const json& request : DriverRequests("DeleteVolume")) {
    deleted.push_back(request.value("volume_id", ""));
  }
  // At least once: upstream may send a second DeleteVolume (#1235), which
  // ours never does (§9.3, tested on its own).
  EXPECT_FALSE(deleted.empty()) << "no DeleteVolume";
  for (const std::string& id : deleted)
    EXPECT_EQ(id, volume_id) << "DeleteVolume of another volume";
  EXPECT_EQ(DriverState().value("existing_volumes", json()), json::array());
  ExpectMigratedSeries(*port, "DeleteVolume");
}

INSTANTIATE_PROVISIONER_PAIRS(MigrationTest);

}  // namespace
}  // namespace migration_it
}  // namespace provisioner_it
