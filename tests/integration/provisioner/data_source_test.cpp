// Volumes that start from data (docs/provisioner.md §3.7), end to end: a
// claim's volume is snapshotted by our snapshot-controller and csi-snapshotter,
// a new claim restores that VolumeSnapshot, another clones the claim. The
// fault driver records the content source each CreateVolume carried and
// echoes it, as a driver that copies data does. The same checks run against
// upstream's provisioner and ours; the snapshot side is ours in both.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/access_review.h"
#include "tests/support/manifest.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/snapshot_service_accounts.h"
#include "tests/support/test_case_files.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

constexpr char kSnapshotFinalizer[] =
    "provisioner.storage.kubernetes.io/volumesnapshot-as-source-protection";
constexpr char kSnapshotsPath[] = "/apis/snapshot.storage.k8s.io/v1";

bool Holds(const json& object, const std::string& finalizer) {
  const json finalizers =
      object.value("metadata", json::object()).value("finalizers", json::array());
  return std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
}

class DataSourceTest : public ProvisionerPairTest {
 protected:
  // The suite's control plane gets the snapshot CRDs and the snapshot
  // binaries' ServiceAccounts.
  // The API server keeps dataSourceRef.namespace only with the alpha gate;
  // the ReferenceGrant CRD comes from the Gateway API (tools/peers).
  static void SetUpTestSuite() {
    ProvisionerTest::StartSuite({"--feature-gates=CrossNamespaceVolumeDataSource=true"});
    if (plane_ == nullptr) return;
    for (const auto& [variable, peer] :
         {std::pair("SNAPSHOT_CRDS_DIR", "crds"), std::pair("GATEWAY_CRDS_DIR", "gateway-crds")}) {
      auto crds = testsupport::FindPeer(variable, peer, plane_->work_dir() + "/peers-build.log");
      ASSERT_TRUE(crds.ok()) << crds.error().message;
      auto installed = plane_->InstallCrds(*crds);
      ASSERT_TRUE(installed.ok()) << installed.error().message;
    }
    auto accounts = testsupport::AddSnapshotServiceAccounts(*plane_);
    ASSERT_TRUE(accounts.ok()) << accounts.error().message;
    sidecar_kubeconfig_ = accounts->sidecar;
    controller_kubeconfig_ = accounts->controller;
  }

  void TearDown() override {
    if (HasFailure()) {
      for (const auto& process : snapshot_processes_) {
        testsupport::PrintLogTail("snapshot", *process, 40);
      }
    }
    snapshot_processes_.clear();
    ProvisionerPairTest::TearDown();
  }

  // The fault driver (able to clone), a class of it, our snapshot pair on
  // the driver's socket, the provisioner under test.
  void StartStack(const Names& names, std::vector<std::string> provisioner_args = {}) {
    ASSERT_NO_FATAL_FAILURE(StartFaultDriver(names.driver, {"--capabilities=CLONE_VOLUME"}));
    ASSERT_NO_FATAL_FAILURE(
        CreateStorageClass({.name = names.storage_class, .provisioner = names.driver}));
    ASSERT_NO_FATAL_FAILURE(Spawn(
        "snapshot-controller", {SNAPSHOT_CONTROLLER_BIN, "--kubeconfig=" + controller_kubeconfig_,
                                "--leader-election=false", "--retry-interval-max=2s", "-v=5"}));
    ASSERT_NO_FATAL_FAILURE(
        Spawn("csi-snapshotter",
              {SNAPSHOTTER_BIN, "--kubeconfig=" + sidecar_kubeconfig_, "--csi-address=" + socket(),
               "--leader-election=false", "--retry-interval-max=2s", "-v=5"}));
    ASSERT_NE(StartProvisionerUnderTest(std::move(provisioner_args)), nullptr);
  }

  // A bound claim of the class; its PV's volume handle.
  std::string BoundClaim(const Names& names, const std::string& claim) {
    json created = CreateClaim({.name = claim, .storage_class = names.storage_class});
    EXPECT_TRUE(created.is_object());
    EXPECT_EQ(PhaseOf(AwaitBound("default", claim)), "Bound");
    return GetPv(PvNameOf(created))
        .value("spec", json::object())
        .value("csi", json::object())
        .value("volumeHandle", "");
  }

  // A VolumeSnapshot of `claim` in a class of `driver`, once ready; its
  // content's snapshot handle ("" if it never got ready).
  std::string ReadySnapshot(const std::string& driver, const std::string& name,
                            const std::string& claim) {
    Post("/volumesnapshotclasses", {{"apiVersion", "snapshot.storage.k8s.io/v1"},
                                    {"kind", "VolumeSnapshotClass"},
                                    {"metadata", {{"name", name}}},
                                    {"driver", driver},
                                    {"deletionPolicy", "Delete"}});
    Post("/namespaces/default/volumesnapshots",
         {{"apiVersion", "snapshot.storage.k8s.io/v1"},
          {"kind", "VolumeSnapshot"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"volumeSnapshotClassName", name},
            {"source", {{"persistentVolumeClaimName", claim}}}}}});
    json snapshot;
    const bool ready = Eventually([&] {
      snapshot = Snapshot(name);
      return snapshot.is_object() &&
             snapshot.value("status", json::object()).value("readyToUse", false);
    });
    EXPECT_TRUE(ready) << "snapshot not ready: " << snapshot.dump(2);
    if (!ready) return "";
    const std::string content = snapshot["status"].value("boundVolumeSnapshotContentName", "");
    return GetJson(std::string(kSnapshotsPath) + "/volumesnapshotcontents/" + content)
        .value("status", json::object())
        .value("snapshotHandle", "");
  }

  // Creates the claim of `spec` and waits until it is bound; every
  // CreateVolume of its volume carried `content_source`.
  void ExpectBoundFrom(const ClaimSpec& spec, const json& content_source) {
    json claim = CreateClaim(spec);
    ASSERT_TRUE(claim.is_object());
    ASSERT_EQ(PhaseOf(AwaitBound(spec.ns, spec.name)), "Bound");
    const std::vector<json> creates = DriverCreateRequestsFor(PvNameOf(claim));
    ASSERT_FALSE(creates.empty()) << "no CreateVolume for " << spec.name;
    for (const json& request : creates) {
      EXPECT_EQ(request["volume_content_source"], content_source) << request.dump(2);
    }
  }

  // An imported VolumeSnapshot of `driver` (a handle nobody made), once the
  // snapshot-controller has bound it to its content.
  void BoundImportedSnapshot(const std::string& driver, const std::string& snapshot,
                             const std::string& content) {
    ASSERT_NO_FATAL_FAILURE(
        Post("/volumesnapshotcontents",
             {{"apiVersion", "snapshot.storage.k8s.io/v1"},
              {"kind", "VolumeSnapshotContent"},
              {"metadata", {{"name", content}}},
              {"spec",
               {{"driver", driver},
                {"deletionPolicy", "Retain"},
                {"source", {{"snapshotHandle", "imported-" + content}}},
                {"volumeSnapshotRef", {{"name", snapshot}, {"namespace", "default"}}}}}}));
    ASSERT_NO_FATAL_FAILURE(
        Post("/namespaces/default/volumesnapshots",
             {{"apiVersion", "snapshot.storage.k8s.io/v1"},
              {"kind", "VolumeSnapshot"},
              {"metadata", {{"name", snapshot}, {"namespace", "default"}}},
              {"spec", {{"source", {{"volumeSnapshotContentName", content}}}}}}));
    json bound;
    ASSERT_TRUE(Eventually([&] {
      bound = Snapshot(snapshot);
      return bound.is_object() &&
             bound.value("status", json::object()).value("boundVolumeSnapshotContentName", "") ==
                 content;
    })) << "the snapshot-controller did not bind the imported snapshot: "
        << bound.dump(2);
  }

  // A claim `name` restoring `snapshot` gets a ProvisioningFailed Event
  // saying `want`, and its volume no CreateVolume.
  void ExpectRestoreRefused(const Names& names, const std::string& name,
                            const std::string& snapshot, const std::string& want) {
    json claim = CreateClaim({.name = name,
                              .storage_class = names.storage_class,
                              .data_source = SnapshotSource(snapshot)});
    ASSERT_TRUE(claim.is_object());
    EXPECT_TRUE(Eventually([&] {
      for (const kube::Event& event : EventsAbout("default", "PersistentVolumeClaim", name)) {
        if (event.reason == "ProvisioningFailed" && event.message.find(want) != std::string::npos) {
          return true;
        }
      }
      return false;
    })) << "no ProvisioningFailed Event saying: "
        << want;
    EXPECT_TRUE(DriverCreateRequestsFor(PvNameOf(claim)).empty());
  }

  static json Snapshot(const std::string& name) {
    return GetJson(std::string(kSnapshotsPath) + "/namespaces/default/volumesnapshots/" + name);
  }
  static json SnapshotSource(const std::string& name) {
    return {{"apiGroup", "snapshot.storage.k8s.io"}, {"kind", "VolumeSnapshot"}, {"name", name}};
  }

  // Gives the provisioner's ServiceAccount what upstream's RBAC leaves
  // commented out for the CrossNamespaceVolumeDataSource gate: get, list and
  // watch on ReferenceGrants; returns once the authorizer applies it.
  void GrantReferenceGrantRead() {
    ASSERT_TRUE(testsupport::ApplyManifest(*admin_, R"(kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: csi-provisioner-referencegrants
rules:
  - apiGroups: ["gateway.networking.k8s.io"]
    resources: ["referencegrants"]
    verbs: ["get", "list", "watch"]
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: csi-provisioner-referencegrants
subjects:
  - kind: ServiceAccount
    name: csi-provisioner
    namespace: default
roleRef:
  kind: ClusterRole
  name: csi-provisioner-referencegrants
  apiGroup: rbac.authorization.k8s.io
)",
                                           "referencegrant read grant")
                    .ok());
    EXPECT_TRUE(Eventually([&] {
      auto may = testsupport::ServiceAccountMay(
          *admin_, kProvisionerNamespace, kProvisionerAccount,
          {.group = "gateway.networking.k8s.io", .resource = "referencegrants", .ns = ""}, "list");
      return may.ok() && *may;
    })) << "the ReferenceGrant read grant is not in effect";
  }
  // A namespace of the test's own.
  void CreateNamespace(const std::string& name) {
    auto created = admin_->Request(
        "POST", "/api/v1/namespaces",
        json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}}.dump(),
        "application/json");
    ASSERT_TRUE(created.ok()) << created.error().message;
  }
  // A ReferenceGrant in "default" letting claims of `from_namespace` use the
  // VolumeSnapshot `snapshot`.
  void GrantSnapshotTo(const std::string& from_namespace, const std::string& snapshot) {
    auto created = admin_->Request(
        "POST", "/apis/gateway.networking.k8s.io/v1beta1/namespaces/default/referencegrants",
        json{{"apiVersion", "gateway.networking.k8s.io/v1beta1"},
             {"kind", "ReferenceGrant"},
             {"metadata", {{"name", "restore-from-" + from_namespace}, {"namespace", "default"}}},
             {"spec",
              {{"from", json::array({{{"group", ""},
                                      {"kind", "PersistentVolumeClaim"},
                                      {"namespace", from_namespace}}})},
               {"to", json::array({{{"group", "snapshot.storage.k8s.io"},
                                    {"kind", "VolumeSnapshot"},
                                    {"name", snapshot}}})}}}}
            .dump(),
        "application/json");
    ASSERT_TRUE(created.ok()) << created.error().message;
  }

  // A VolumeSnapshot carrying the source-protection finalizer, as one a
  // provisioner that died mid-restore leaves behind (its content never made).
  void ProtectedSnapshot(const std::string& name) {
    Post("/namespaces/default/volumesnapshots",
         {{"apiVersion", "snapshot.storage.k8s.io/v1"},
          {"kind", "VolumeSnapshot"},
          {"metadata",
           {{"name", name}, {"namespace", "default"}, {"finalizers", {kSnapshotFinalizer}}}},
          {"spec", {{"source", {{"volumeSnapshotContentName", name + "-content"}}}}}});
  }

  void Post(const std::string& path, const json& object) {
    auto created =
        admin_->Request("POST", kSnapshotsPath + path, object.dump(), "application/json");
    ASSERT_TRUE(created.ok()) << "POST " << path << ": " << created.error().message;
  }

 private:
  void Spawn(const std::string& log_name, std::vector<std::string> argv) {
    auto process = testsupport::SpawnLogged(work_dir(), log_name, std::move(argv));
    ASSERT_NE(process, nullptr) << log_name << " did not start";
    snapshot_processes_.push_back(std::move(process));
  }

  static inline std::string sidecar_kubeconfig_;
  static inline std::string controller_kubeconfig_;
  std::vector<std::unique_ptr<testsupport::Process>> snapshot_processes_;
};

// §3.7: the user story - a claim, a snapshot of it, a claim restoring the
// snapshot: CreateVolume carries the snapshot's handle, the claim binds, the
// snapshot is let go of, and deleting it then deletes it on the driver.
TEST_P(DataSourceTest, RestoreOfAReadySnapshotCreatesTheVolumeFromItsHandleAndReleasesIt) {
  const Names n = NamesFor("restore");
  const std::string snapshot = Unique("restore-snap");
  const std::string restored = Unique("restore-target");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  ASSERT_FALSE(BoundClaim(n, n.claim).empty());
  const std::string handle = ReadySnapshot(n.driver, snapshot, n.claim);
  ASSERT_FALSE(handle.empty()) << "no snapshot handle";

  ASSERT_NO_FATAL_FAILURE(ExpectBoundFrom(
      {.name = restored, .storage_class = n.storage_class, .data_source = SnapshotSource(snapshot)},
      {{"snapshot", {{"snapshot_id", handle}}}}));
  json source;
  EXPECT_TRUE(Eventually([&] {
    source = Snapshot(snapshot);
    return source.is_object() && !Holds(source, kSnapshotFinalizer);
  })) << "the snapshot kept the provisioner's finalizer: "
      << source.dump(2);

  auto deleted = admin_->Request(
      "DELETE", std::string(kSnapshotsPath) + "/namespaces/default/volumesnapshots/" + snapshot);
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  EXPECT_TRUE(Eventually([&] { return Snapshot(snapshot).is_null(); })) << "snapshot not deleted";
  EXPECT_TRUE(Eventually([&] {
    return DriverState().value("existing_snapshots", json::array()).empty();
  })) << DriverState().value("existing_snapshots", json::array()).dump();
}

// §3.7: a clone of a bound claim is made from the source's volume, and the
// source, once deleted, goes (its clone-protection finalizer is taken off
// as no Pending claim clones it any more).
TEST_P(DataSourceTest, CloneOfABoundClaimCreatesTheVolumeFromItsVolumeAndTheSourceCanGo) {
  const Names n = NamesFor("clone");
  const std::string clone = Unique("clone-target");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  const std::string source_handle = BoundClaim(n, n.claim);
  ASSERT_FALSE(source_handle.empty());

  ASSERT_NO_FATAL_FAILURE(
      ExpectBoundFrom({.name = clone,
                       .storage_class = n.storage_class,
                       .data_source = {{"kind", "PersistentVolumeClaim"}, {"name", n.claim}}},
                      {{"volume", {{"volume_id", source_handle}}}}));

  ASSERT_NO_FATAL_FAILURE(DeleteClaim("default", n.claim));
  json source;
  EXPECT_TRUE(Eventually([&] {
    source = GetClaim("default", n.claim);
    return source.is_null();
  })) << "the source claim stays: "
      << source.dump(2);
}

// §3.7: a claim smaller than the snapshot's restore size gets upstream's
// Event and no CreateVolume.
TEST_P(DataSourceTest, RestoreSmallerThanTheSnapshotIsRefusedWithUpstreamsEvent) {
  const Names n = NamesFor("small-restore");
  const std::string snapshot = Unique("small-restore-snap");
  const std::string restored = Unique("small-restore-target");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  ASSERT_FALSE(BoundClaim(n, n.claim).empty());
  ASSERT_FALSE(ReadySnapshot(n.driver, snapshot, n.claim).empty());
  const int64_t restore_size = 1 << 30;  // the fault driver's snapshot of a 1Gi volume

  json claim = CreateClaim({.name = restored,
                            .storage_class = n.storage_class,
                            .size = "1Mi",
                            .data_source = SnapshotSource(snapshot)});
  ASSERT_TRUE(claim.is_object());
  std::optional<kube::Event> failed =
      AwaitEvent("default", "PersistentVolumeClaim", restored, "ProvisioningFailed");
  ASSERT_TRUE(failed) << "no ProvisioningFailed Event";
  EXPECT_NE(
      failed->message.find("requested volume size 1048576 is less than the size " +
                           std::to_string(restore_size) + " for the source snapshot " + snapshot),
      std::string::npos)
      << failed->message;
  EXPECT_TRUE(DriverCreateRequestsFor(PvNameOf(claim)).empty());
}

// §3.7: a snapshot whose content belongs to another driver (an imported
// one, bound by the snapshot-controller) gets upstream's Event and no
// CreateVolume.
TEST_P(DataSourceTest, SnapshotOfAnotherDriverIsRefusedWithUpstreamsEvent) {
  const Names n = NamesFor("foreign-restore");
  const std::string snapshot = Unique("foreign-snap");
  const std::string content = Unique("foreign-content");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  ASSERT_NO_FATAL_FAILURE(BoundImportedSnapshot("other.csi.example.com", snapshot, content));
  ExpectRestoreRefused(n, Unique("foreign-restore-target"), snapshot,
                       "snapshotcontent " + content + " for snapshot " + snapshot +
                           " is not handled by CSI driver of StorageClass " + n.storage_class);
}

// §3.7: a snapshot that is not ready (imported with a handle the driver
// does not have) gets upstream's Event and no CreateVolume.
TEST_P(DataSourceTest, SnapshotNotReadyIsRefusedWithUpstreamsEvent) {
  const Names n = NamesFor("unready-restore");
  const std::string snapshot = Unique("unready-snap");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  ASSERT_NO_FATAL_FAILURE(BoundImportedSnapshot(n.driver, snapshot, Unique("unready-content")));
  ExpectRestoreRefused(n, Unique("unready-restore-target"), snapshot,
                       "snapshot " + snapshot + " is not Ready");
}

// §3.7, §9.7: a source-protection finalizer no Pending claim accounts for
// (left by a provisioner that died mid-restore) comes off at the next sweep;
// one a Pending claim restores from stays.
TEST_P(DataSourceTest, SweepReleasesSnapshotsNoPendingClaimRestoresFrom) {
  const Names n = NamesFor("sweep");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver));
  // A class of a driver nobody serves: its claim stays Pending.
  const std::string stuck_class = n.storage_class + "-stuck";
  ASSERT_NO_FATAL_FAILURE(
      CreateStorageClass({.name = stuck_class, .provisioner = "nobody.csi.example.com"}));
  const std::string orphan = Unique("orphan"), restored = Unique("restored");
  for (const std::string& name : {orphan, restored}) {
    ASSERT_NO_FATAL_FAILURE(ProtectedSnapshot(name));
  }
  ASSERT_TRUE(
      CreateClaim(
          {.name = n.claim, .storage_class = stuck_class, .data_source = SnapshotSource(restored)})
          .is_object());
  ASSERT_NE(StartProvisionerUnderTest({"--snapshot-orphan-sweep-interval=1s"}), nullptr);

  EXPECT_TRUE(Eventually([&] { return !Holds(Snapshot(orphan), kSnapshotFinalizer); }))
      << Snapshot(orphan).dump(2);
  // A second orphan made now is released by a later sweep, so the sweep
  // that released the first - which also saw the restored snapshot - is over.
  const std::string later = Unique("orphan-later");
  ASSERT_NO_FATAL_FAILURE(ProtectedSnapshot(later));
  EXPECT_TRUE(Eventually([&] { return !Holds(Snapshot(later), kSnapshotFinalizer); }))
      << Snapshot(later).dump(2);
  EXPECT_TRUE(Holds(Snapshot(restored), kSnapshotFinalizer)) << Snapshot(restored).dump(2);
  EXPECT_EQ(PhaseOf(GetClaim("default", n.claim)), "Pending");
}

// §3.3 step 1, §3.7: with the CrossNamespaceVolumeDataSource gate a claim
// may restore a snapshot of another namespace once a ReferenceGrant there
// allows it: before, upstream's Finished error as a Warning and no
// CreateVolume; after, the restore goes through (retried with the backoff).
TEST_P(DataSourceTest, CrossNamespaceRestoreWaitsForAReferenceGrant) {
  const Names n = NamesFor("cross-ns");
  ASSERT_NO_FATAL_FAILURE(GrantReferenceGrantRead());
  ASSERT_NO_FATAL_FAILURE(StartStack(n, {"--feature-gates=CrossNamespaceVolumeDataSource=true"}));
  BoundClaim(n, n.claim);
  const std::string snapshot = Unique("cross-ns-snap");
  const std::string handle = ReadySnapshot(n.driver, snapshot, n.claim);
  ASSERT_FALSE(handle.empty());
  const std::string restore_ns = Unique("cross-ns-target");
  ASSERT_NO_FATAL_FAILURE(CreateNamespace(restore_ns));
  const std::string restore = Unique("cross-ns-restore");
  json source = SnapshotSource(snapshot);
  source["namespace"] = "default";
  json claim = CreateClaim({.name = restore,
                            .storage_class = n.storage_class,
                            .ns = restore_ns,
                            .data_source_ref = source});
  ASSERT_TRUE(claim.is_object());
  std::optional<kube::Event> refused =
      AwaitEvent(restore_ns, "PersistentVolumeClaim", restore, "ProvisioningFailed");
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->message, "accessing default/" + snapshot +
                                  " of VolumeSnapshot dataSource from " + restore_ns + "/" +
                                  restore + " isn't allowed");
  EXPECT_TRUE(DriverCreateRequestsFor(PvNameOf(claim)).empty());

  ASSERT_NO_FATAL_FAILURE(GrantSnapshotTo(restore_ns, snapshot));
  ASSERT_EQ(PhaseOf(AwaitBound(restore_ns, restore)), "Bound");
  const std::vector<json> creates = DriverCreateRequestsFor(PvNameOf(claim));
  ASSERT_FALSE(creates.empty());
  EXPECT_EQ(creates.back()["volume_content_source"],
            (json{{"snapshot", {{"snapshot_id", handle}}}}));
}

// §3.3 step 1: without the gate a dataSourceRef naming another namespace is
// refused with upstream's text.
TEST_P(DataSourceTest, CrossNamespaceSourceWithoutTheGateIsRefused) {
  const Names n = NamesFor("no-gate");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  const std::string restore_ns = Unique("no-gate-target");
  ASSERT_NO_FATAL_FAILURE(CreateNamespace(restore_ns));
  json source = SnapshotSource(Unique("any-snap"));
  source["namespace"] = "default";
  json claim = CreateClaim({.name = n.claim,
                            .storage_class = n.storage_class,
                            .ns = restore_ns,
                            .data_source_ref = source});
  ASSERT_TRUE(claim.is_object());
  std::optional<kube::Event> refused =
      AwaitEvent(restore_ns, "PersistentVolumeClaim", n.claim, "ProvisioningFailed");
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->message,
            "dataSourceRef namespace specified but the CrossNamespaceVolumeDataSource feature is "
            "disabled");
  EXPECT_TRUE(DriverCreateRequestsFor(PvNameOf(claim)).empty());
}

// §3.7 (#1448): the snapshot is deleted while its restore's CreateVolume
// runs: the source-protection finalizer keeps it until the volume is made,
// then it goes.
TEST_P(DataSourceTest, SnapshotDeletedWhileItsRestoreRunsWaitsForTheVolume) {
  const Names n = NamesFor("deleted-source");
  ASSERT_NO_FATAL_FAILURE(StartStack(n));
  BoundClaim(n, n.claim);
  const std::string snapshot = Unique("deleted-source-snap");
  const std::string handle = ReadySnapshot(n.driver, snapshot, n.claim);
  ASSERT_FALSE(handle.empty());
  // The restore's CreateVolume takes 4 s.
  ASSERT_NO_FATAL_FAILURE(
      WriteDriverFaults({{"CreateVolume", json::array({{{"delay", "4s"}, {"times", 1}}})}}));
  const std::string restore = Unique("deleted-source-restore");
  json claim = CreateClaim(
      {.name = restore, .storage_class = n.storage_class, .data_source = SnapshotSource(snapshot)});
  ASSERT_TRUE(claim.is_object());
  // The finalizer goes on just before CreateVolume starts.
  ASSERT_TRUE(Eventually([&] { return Holds(Snapshot(snapshot), kSnapshotFinalizer); }))
      << "the restore never protected its snapshot: " << Snapshot(snapshot).dump(2);
  ASSERT_TRUE(admin_
                  ->Request("DELETE", std::string(kSnapshotsPath) +
                                          "/namespaces/default/volumesnapshots/" + snapshot)
                  .ok());
  // CreateVolume still runs: the finalizer holds the snapshot.
  json held = Snapshot(snapshot);
  EXPECT_TRUE(held.is_object() && held["metadata"].contains("deletionTimestamp") &&
              Holds(held, kSnapshotFinalizer))
      << held.dump(2);
  ASSERT_EQ(PhaseOf(AwaitBound("default", restore)), "Bound");
  EXPECT_EQ(DriverCreateRequestsFor(PvNameOf(claim)).front()["volume_content_source"],
            (json{{"snapshot", {{"snapshot_id", handle}}}}));
  EXPECT_TRUE(Eventually([&] { return Snapshot(snapshot).is_null(); }))
      << "the snapshot stayed after its restore: " << Snapshot(snapshot).dump(2);
}

// §3.7: a cross-namespace source that does not exist, though a grant would
// allow it: upstream's error as a Warning, and no CreateVolume.
TEST_P(DataSourceTest, MissingCrossNamespaceSnapshotIsRefusedWithUpstreamsEvent) {
  const Names n = NamesFor("missing-cross-ns");
  ASSERT_NO_FATAL_FAILURE(GrantReferenceGrantRead());
  ASSERT_NO_FATAL_FAILURE(StartStack(n, {"--feature-gates=CrossNamespaceVolumeDataSource=true"}));
  const std::string restore_ns = Unique("missing-target");
  ASSERT_NO_FATAL_FAILURE(CreateNamespace(restore_ns));
  const std::string snapshot = Unique("never-taken");
  ASSERT_NO_FATAL_FAILURE(GrantSnapshotTo(restore_ns, snapshot));
  json source = SnapshotSource(snapshot);
  source["namespace"] = "default";
  json claim = CreateClaim({.name = n.claim,
                            .storage_class = n.storage_class,
                            .ns = restore_ns,
                            .data_source_ref = source});
  ASSERT_TRUE(claim.is_object());
  std::optional<kube::Event> refused =
      AwaitEvent(restore_ns, "PersistentVolumeClaim", n.claim, "ProvisioningFailed");
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->message, "error getting handle for DataSource Type VolumeSnapshot by Name " +
                                  snapshot + ": error getting snapshot " + snapshot +
                                  " from api server: volumesnapshots.snapshot.storage.k8s.io \"" +
                                  snapshot + "\" not found");
  EXPECT_TRUE(DriverCreateRequestsFor(PvNameOf(claim)).empty());
}

INSTANTIATE_PROVISIONER_PAIRS(DataSourceTest);

}  // namespace
}  // namespace provisioner_it
