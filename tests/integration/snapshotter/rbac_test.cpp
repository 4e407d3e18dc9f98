// The RBAC manifests of deploy/kubernetes/csi-snapshotter/ and
// deploy/kubernetes/snapshot-controller/ on a real API server
// (docs/snapshots.md §5): each ServiceAccount may do exactly what upstream's
// rules grant - every verb on every resource either role names, and a few it
// does not, is asked of the authorizer - and real requests made with the
// accounts' tokens get through or are forbidden accordingly.
#include <gtest/gtest.h>

#include "tests/integration/snapshotter/snapshot_fixture.h"
#include "tests/support/access_review.h"
#include "tests/support/test_objects.h"

namespace snapshot_it {
namespace {

constexpr char kCore[] = "";
constexpr char kSnapshot[] = "snapshot.storage.k8s.io";
constexpr char kGroupSnapshot[] = "groupsnapshot.storage.k8s.io";
constexpr char kCoordination[] = "coordination.k8s.io";
using testsupport::kAnyNamespace;

using Target = testsupport::AccessTarget;
// The rules of upstream's manifests (v8.7.0).
using Rule = testsupport::AccessRule;

const std::vector<Rule> kSidecarRules = {
    {kCore, "events", kAnyNamespace, {"list", "watch", "create", "update", "patch"}},
    {kSnapshot, "volumesnapshotclasses", kAnyNamespace, {"get", "list", "watch"}},
    {kSnapshot,
     "volumesnapshotcontents",
     kAnyNamespace,
     {"get", "list", "watch", "update", "patch"}},
    {kSnapshot, "volumesnapshotcontents/status", kAnyNamespace, {"update", "patch"}},
    {kGroupSnapshot, "volumegroupsnapshotclasses", kAnyNamespace, {"get", "list", "watch"}},
    {kGroupSnapshot,
     "volumegroupsnapshotcontents",
     kAnyNamespace,
     {"get", "list", "watch", "update", "patch"}},
    {kGroupSnapshot, "volumegroupsnapshotcontents/status", kAnyNamespace, {"update", "patch"}},
    {kCoordination,
     "leases",
     kSnapshotterNamespace,
     {"get", "watch", "list", "delete", "update", "create"}},
};

const std::vector<Rule> kControllerRules = {
    {kCore, "persistentvolumes", kAnyNamespace, {"get", "list", "watch"}},
    {kCore, "persistentvolumeclaims", kAnyNamespace, {"get", "list", "watch", "update"}},
    {kCore, "events", kAnyNamespace, {"list", "watch", "create", "update", "patch"}},
    {kSnapshot, "volumesnapshotclasses", kAnyNamespace, {"get", "list", "watch"}},
    {kSnapshot,
     "volumesnapshotcontents",
     kAnyNamespace,
     {"create", "get", "list", "watch", "update", "delete", "patch"}},
    {kSnapshot, "volumesnapshotcontents/status", kAnyNamespace, {"patch"}},
    {kSnapshot,
     "volumesnapshots",
     kAnyNamespace,
     {"create", "get", "list", "watch", "update", "patch", "delete"}},
    {kSnapshot, "volumesnapshots/status", kAnyNamespace, {"update", "patch"}},
    {kGroupSnapshot, "volumegroupsnapshotclasses", kAnyNamespace, {"get", "list", "watch"}},
    {kGroupSnapshot,
     "volumegroupsnapshotcontents",
     kAnyNamespace,
     {"create", "get", "list", "watch", "update", "delete", "patch"}},
    {kGroupSnapshot, "volumegroupsnapshotcontents/status", kAnyNamespace, {"patch"}},
    {kGroupSnapshot,
     "volumegroupsnapshots",
     kAnyNamespace,
     {"get", "list", "watch", "update", "patch"}},
    {kGroupSnapshot, "volumegroupsnapshots/status", kAnyNamespace, {"update", "patch"}},
    {kCoordination,
     "leases",
     kSnapshotControllerNamespace,
     {"get", "watch", "list", "delete", "update", "create"}},
};

// Every resource either role names, where it is namespaced in both
// namespaces, plus resources neither grants.
std::vector<Target> Targets() {
  std::vector<Target> targets;
  auto add_namespaced = [&](const std::string& group, const std::string& resource) {
    for (const char* ns : {kSnapshotterNamespace, kSnapshotControllerNamespace}) {
      targets.push_back({group, resource, ns});
    }
  };
  for (const char* r : {"persistentvolumes", "persistentvolumes/status", "nodes"}) {
    targets.push_back({kCore, r, ""});
  }
  for (const char* r :
       {"events", "persistentvolumeclaims", "persistentvolumeclaims/status", "secrets", "pods"}) {
    add_namespaced(kCore, r);
  }
  for (const char* r :
       {"volumesnapshotclasses", "volumesnapshotcontents", "volumesnapshotcontents/status"}) {
    targets.push_back({kSnapshot, r, ""});
  }
  for (const char* r : {"volumesnapshots", "volumesnapshots/status"}) add_namespaced(kSnapshot, r);
  for (const char* r : {"volumegroupsnapshotclasses", "volumegroupsnapshotcontents",
                        "volumegroupsnapshotcontents/status"}) {
    targets.push_back({kGroupSnapshot, r, ""});
  }
  for (const char* r : {"volumegroupsnapshots", "volumegroupsnapshots/status"}) {
    add_namespaced(kGroupSnapshot, r);
  }
  add_namespaced(kCoordination, "leases");
  return targets;
}

void ExpectExactly(kube::Client& admin, const std::string& ns, const std::string& name,
                   const std::vector<Rule>& rules) {
  auto comparison = testsupport::CompareAccess(admin, ns, name, Targets(), rules);
  ASSERT_TRUE(comparison.ok()) << comparison.error().message;
  for (const std::string& mismatch : comparison->mismatches) ADD_FAILURE() << mismatch;
  EXPECT_GT(comparison->granted, 0) << "the table grants nothing: the check would prove nothing";
}

kube::VolumeSnapshotContent Content(const std::string& name) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = name;
  content.spec.deletion_policy = "Retain";
  content.spec.driver = "rbac.csi.example.com";
  content.spec.source.volume_handle = "vol-1";
  content.spec.volume_snapshot_ref.name = "snap-1";
  content.spec.volume_snapshot_ref.namespace_ = "default";
  return content;
}

TEST_F(SnapshotTest, SidecarServiceAccountMayDoExactlyWhatUpstreamRulesGrant) {
  ExpectExactly(*admin_, kSnapshotterNamespace, kSnapshotterAccount, kSidecarRules);
}

TEST_F(SnapshotTest, ControllerServiceAccountMayDoExactlyWhatUpstreamRulesGrant) {
  ExpectExactly(*admin_, kSnapshotControllerNamespace, kSnapshotControllerAccount,
                kControllerRules);
}

TEST_F(SnapshotTest, SidecarIdentityPatchesContentStatusButCannotCreateOrDeleteContents) {
  ASSERT_TRUE(admin_->Create(Content("rbac-sidecar")).ok());
  auto sidecar = ClientFor(sidecar_kubeconfig_);
  ASSERT_NE(sidecar, nullptr);

  auto status = sidecar->PatchStatus<kube::VolumeSnapshotContent>(
      "", "rbac-sidecar", kube::PatchType::kMerge,
      R"({"status":{"readyToUse":false,"snapshotHandle":"h-1"}})");
  ASSERT_TRUE(status.ok()) << status.error().message;
  ASSERT_TRUE(status->status.has_value());
  EXPECT_EQ(status->status->snapshot_handle, "h-1");
  auto annotated = sidecar->Patch<kube::VolumeSnapshotContent>(
      "", "rbac-sidecar", kube::PatchType::kMerge,
      R"({"metadata":{"annotations":{"example.com/seen":"yes"}}})");
  EXPECT_TRUE(annotated.ok()) << annotated.error().message;

  auto created = sidecar->Create(Content("rbac-sidecar-own"));
  ASSERT_FALSE(created.ok()) << "the sidecar created a VolumeSnapshotContent";
  EXPECT_TRUE(kube::IsForbidden(created.error())) << created.error().message;
  auto deleted = sidecar->Delete<kube::VolumeSnapshotContent>("", "rbac-sidecar");
  ASSERT_FALSE(deleted.ok()) << "the sidecar deleted a VolumeSnapshotContent";
  EXPECT_TRUE(kube::IsForbidden(deleted.error())) << deleted.error().message;
  auto snapshots = sidecar->List<kube::VolumeSnapshot>("default");
  ASSERT_FALSE(snapshots.ok()) << "the sidecar listed VolumeSnapshots";
  EXPECT_TRUE(kube::IsForbidden(snapshots.error())) << snapshots.error().message;

  EXPECT_TRUE(admin_->Delete<kube::VolumeSnapshotContent>("", "rbac-sidecar").ok());
}

TEST_F(SnapshotTest, ControllerIdentityCreatesContentsAndPatchesButCannotPutTheirStatus) {
  auto controller = ClientFor(controller_kubeconfig_);
  ASSERT_NE(controller, nullptr);
  auto created = controller->Create(Content("rbac-controller"));
  ASSERT_TRUE(created.ok()) << created.error().message;

  auto patched = controller->PatchStatus<kube::VolumeSnapshotContent>(
      "", "rbac-controller", kube::PatchType::kMerge, R"({"status":{"readyToUse":false}})");
  EXPECT_TRUE(patched.ok()) << patched.error().message;
  // Upstream grants volumesnapshotcontents/status "patch" only.
  kube::VolumeSnapshotContent put = patched.ok() ? *patched : *created;
  put.status.emplace().ready_to_use = true;
  auto updated = controller->UpdateStatus(put);
  ASSERT_FALSE(updated.ok()) << "the controller PUT a content's status";
  EXPECT_TRUE(kube::IsForbidden(updated.error())) << updated.error().message;

  // PVs are read-only to it.
  auto pv = controller->Create(kube::testobjects::CsiPv("rbac-controller-pv", "d.csi.example.com"));
  ASSERT_FALSE(pv.ok()) << "the controller created a PV";
  EXPECT_TRUE(kube::IsForbidden(pv.error())) << pv.error().message;

  auto deleted = controller->Delete<kube::VolumeSnapshotContent>("", "rbac-controller");
  EXPECT_TRUE(deleted.ok()) << deleted.error().message;
}

}  // namespace
}  // namespace snapshot_it
