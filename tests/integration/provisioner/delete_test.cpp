// A provisioned volume outlives its claim by the class's reclaim policy
// (docs/provisioner.md §4): Delete → DeleteVolume, then the PV is deleted and
// its finalizer removed; Retain → the finalizer is removed at once, the PV
// stays Released and the volume stays in the driver. The fault driver keeps
// every DeleteVolume with the volume it named.
//
// Upstream may send DeleteVolume twice for one volume: a PV update that
// arrives between its PV DELETE and the finalizer removal starts the
// deletion again (§4.2, #1235; seen here about once in ten deletions). The
// pair tests accept that; ours sends it once (§9.3), which OursOnlyTest checks.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/integration/provisioner/provisioner_fixture.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

bool HasFinalizer(const json& pv) {
  const json finalizers = pv.value("metadata", json::object()).value("finalizers", json::array());
  return std::find(finalizers.begin(), finalizers.end(), kPvFinalizer) != finalizers.end();
}

// The volume IDs of the driver's DeleteVolume calls, one entry per call.
std::vector<std::string> DeletedIds(const std::vector<json>& delete_requests) {
  std::vector<std::string> ids;
  for (const json& request : delete_requests) ids.push_back(request.value("volume_id", ""));
  return ids;
}

TEST_P(ProvisionerPairTest, DeletePolicyDeletesTheVolumeThenThePv) {
  const Names n = NamesFor("delete");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .reclaim_policy = "Delete"}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  json claim = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_TRUE(claim.is_object());
  const std::string pv_name = PvNameOf(claim);
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");
  json pv = AwaitPv(pv_name, HasFinalizer);
  ASSERT_TRUE(HasFinalizer(pv)) << pv.dump(2);
  const std::string handle = pv["spec"]["csi"]["volumeHandle"];
  ASSERT_EQ(DriverState()["existing_volumes"], json::array({handle}));

  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", n.claim));
  // The PV goes only once its finalizer is removed, after DeleteVolume.
  ASSERT_TRUE(AwaitPvGone(pv_name)) << "PV not deleted: " << GetPv(pv_name).dump(2);
  const std::vector<std::string> deleted = DeletedIds(DriverRequests("DeleteVolume"));
  EXPECT_FALSE(deleted.empty()) << "no DeleteVolume";
  EXPECT_EQ(std::count(deleted.begin(), deleted.end(), handle), std::ssize(deleted))
      << "a DeleteVolume for another volume";
  EXPECT_EQ(DriverState()["existing_volumes"], json::array()) << "the volume is left";
}

// The Retain volume's claim is deleted first; a Delete volume deleted after
// it shows the provisioner has handled the release (one informer stream).
TEST_P(ProvisionerPairTest, RetainPolicyKeepsTheReleasedPvAndTheVolumeWithoutFinalizer) {
  const Names n = NamesFor("retain");
  const std::string delete_class = Unique("retain-sentinel");
  const std::string delete_claim = Unique("retain-sentinel");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = n.storage_class, .provisioner = n.driver, .reclaim_policy = "Retain"}));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
      {.name = delete_class, .provisioner = n.driver, .reclaim_policy = "Delete"}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  json retained = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  json deleted = CreateClaim({.name = delete_claim, .storage_class = delete_class});
  ASSERT_TRUE(retained.is_object() && deleted.is_object());
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");
  ASSERT_EQ(PhaseOf(AwaitBound("default", delete_claim)), "Bound");
  const std::string retained_pv = PvNameOf(retained);

  // §4.1: a Retain PV loses the finalizer on its first sync.
  json pv = AwaitPv(retained_pv, [](const json& pv) { return !HasFinalizer(pv); });
  ASSERT_FALSE(HasFinalizer(pv)) << "the Retain PV kept the finalizer: " << pv.dump(2);
  const std::string handle = pv["spec"]["csi"]["volumeHandle"];

  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", n.claim));
  pv = AwaitPv(retained_pv, [](const json& pv) { return PhaseOf(pv) == "Released"; });
  ASSERT_EQ(PhaseOf(pv), "Released") << pv.dump(2);
  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", delete_claim));
  ASSERT_TRUE(AwaitPvGone(PvNameOf(deleted))) << "the Delete PV was not deleted";

  const std::vector<std::string> deleted_ids = DeletedIds(DriverRequests("DeleteVolume"));
  EXPECT_FALSE(deleted_ids.empty()) << "no DeleteVolume for the Delete volume";
  EXPECT_EQ(std::count(deleted_ids.begin(), deleted_ids.end(), handle), 0)
      << "DeleteVolume for the Retain volume";
  EXPECT_EQ(DriverState()["existing_volumes"], json::array({handle}));
  pv = GetPv(retained_pv);
  ASSERT_TRUE(pv.is_object()) << "the Retain PV was deleted";
  EXPECT_EQ(PhaseOf(pv), "Released");
  EXPECT_FALSE(pv["metadata"].contains("deletionTimestamp")) << pv.dump(2);
  EXPECT_FALSE(HasFinalizer(pv)) << pv.dump(2);
}

// §9.3 (#1235): one DeleteVolume per volume. Several volumes, deleted
// together, give upstream's race several chances.
TEST_F(OursOnlyTest, DeletePolicySendsOneDeleteVolumePerVolume) {
  constexpr int kClaims = 5;
  const std::string driver = "once.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver));
  ASSERT_NO_FATAL_FAILURE(
      CreateStorageClass({.name = "once", .provisioner = driver, .reclaim_policy = "Delete"}));
  ASSERT_NE(StartOurProvisioner(), nullptr);
  std::vector<std::string> handles;
  for (int i = 0; i < kClaims; ++i) {
    json claim = CreateClaim({.name = "once-" + std::to_string(i), .storage_class = "once"});
    ASSERT_TRUE(claim.is_object());
    handles.push_back("vol-" + PvNameOf(claim));
  }
  for (int i = 0; i < kClaims; ++i) {
    ASSERT_EQ(PhaseOf(AwaitBound("default", "once-" + std::to_string(i))), "Bound");
  }
  for (int i = 0; i < kClaims; ++i) {
    ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", "once-" + std::to_string(i)));
  }
  for (const std::string& handle : handles) {
    ASSERT_TRUE(AwaitPvGone(handle.substr(std::string("vol-").size()))) << handle;
  }
  std::vector<std::string> deleted = DeletedIds(DriverRequests("DeleteVolume"));
  std::sort(deleted.begin(), deleted.end());
  std::sort(handles.begin(), handles.end());
  EXPECT_EQ(deleted, handles);
}

// §9.9 (#1277): a driver that answers DeleteVolume NotFound for a volume
// already gone leaves upstream's PV Terminating forever; with
// --delete-volume-not-found-is-success ours takes the answer as the volume
// deleted and the PV goes.
TEST_F(OursOnlyTest, DeleteVolumeNotFoundLetsThePvGoWhenAskedTo) {
  const std::string driver = "gone.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver));
  ASSERT_NO_FATAL_FAILURE(
      CreateStorageClass({.name = "gone", .provisioner = driver, .reclaim_policy = "Delete"}));
  ASSERT_NE(StartOurProvisioner({"--delete-volume-not-found-is-success"}), nullptr);
  json claim = CreateClaim({.name = "gone", .storage_class = "gone"});
  ASSERT_TRUE(claim.is_object());
  ASSERT_EQ(PhaseOf(AwaitBound("default", "gone")), "Bound");
  WriteDriverFaults(
      {{"DeleteVolume", json::array({{{"code", "NOT_FOUND"}, {"message", "no such volume"}}})}});
  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", "gone"));
  EXPECT_TRUE(AwaitPvGone(PvNameOf(claim)));
  EXPECT_EQ(DriverCalls("DeleteVolume"), 1);
  EXPECT_EQ(DriverCallsOk("DeleteVolume"), 0);
}

}  // namespace
}  // namespace provisioner_it
