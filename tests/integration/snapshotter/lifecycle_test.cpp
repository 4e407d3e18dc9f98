// A snapshot's life with the whole stack: upstream's snapshot-controller, a
// csi-snapshotter sidecar and a CSI driver take a snapshot of a bound PVC,
// import an existing one, pass the class's secrets and parameters on, and
// delete or keep the snapshot by its policy (docs/snapshots.md §3.4-§3.6,
// §4.5). The sidecar is the test parameter: upstream's and ours pass the same
// checks.
#include <gtest/gtest.h>

#include "tests/integration/snapshotter/snapshot_fixture.h"
#include "tests/support/csi_sidecars.h"

namespace snapshot_it {
namespace {

constexpr int64_t kMockVolumeBytes = 100LL << 30;  // the mock driver's default volume size
constexpr char kFaultVolume[] = "vol-1";
constexpr char kFaultVolumes[] = "vol-1:1073741824";  // 1 GiB

constexpr char kDeletionSecretName[] = "snapshot.storage.kubernetes.io/deletion-secret-name";
constexpr char kDeletionSecretNamespace[] =
    "snapshot.storage.kubernetes.io/deletion-secret-namespace";

TEST_P(SnapshotPairTest, SnapshotOfBoundPvcBecomesReadyThenDeletePolicyDeletesItEverywhere) {
  const Names n = NamesFor("delete");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));  // volume "4"
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  EXPECT_TRUE(snapshot->status->creation_time.has_value()) << "no creationTime";
  EXPECT_EQ(snapshot->status->restore_size, "100Gi");
  ASSERT_TRUE(snapshot->status->bound_volume_snapshot_content_name.has_value());
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;
  EXPECT_EQ(content_name, "snapcontent-" + snapshot->metadata.uid.str());

  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->spec.driver, n.driver);
  EXPECT_EQ(content->spec.source.volume_handle, "4");
  EXPECT_EQ(content->spec.deletion_policy, "Delete");
  ASSERT_TRUE(content->status.has_value());
  EXPECT_EQ(content->status->ready_to_use, true);
  EXPECT_EQ(content->status->restore_size, kMockVolumeBytes);
  EXPECT_GT(content->status->creation_time.value_or(0), 0);
  ASSERT_TRUE(content->status->snapshot_handle.has_value());
  const std::string handle = *content->status->snapshot_handle;
  EXPECT_TRUE(DriverHasSnapshot(handle)) << "the driver does not list snapshot " << handle;
  EXPECT_GE(DriverCallsOk("CreateSnapshot"), 1);

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "VolumeSnapshot not released";
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name))
      << "VolumeSnapshotContent not deleted";
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 1);
  EXPECT_FALSE(DriverHasSnapshot(handle)) << "the driver still has snapshot " << handle;
}

TEST_P(SnapshotPairTest, RetainPolicyKeepsContentAndDriverSnapshotAfterSnapshotIsDeleted) {
  const Names n = NamesFor("retain");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Retain"));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "VolumeSnapshot not released";
  // The content outlives its snapshot; once the VolumeSnapshot is gone there
  // is nothing left to wait for, so it must still be there now.
  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << "Retain content was deleted: " << content.error().message;
  EXPECT_TRUE(content->metadata.deletion_timestamp.empty());
  ASSERT_TRUE(content->status && content->status->snapshot_handle);
  EXPECT_TRUE(DriverHasSnapshot(*content->status->snapshot_handle));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 0);
}

// §3.6: a content naming a snapshot the driver already has is checked with
// ListSnapshots and becomes ready; the VolumeSnapshot naming the content binds
// to it. Deleting them with policy Delete deletes the imported snapshot too.
TEST_P(SnapshotPairTest, PreProvisionedContentWithSnapshotHandleBecomesReadyAndIsDeleted) {
  const Names n = NamesFor("import");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));
  const std::string handle = CreateDriverSnapshot("backup-of-4", "4");
  ASSERT_FALSE(handle.empty());

  const std::string content_name = "content-" + Unique("import");
  kube::VolumeSnapshotContent content;
  content.metadata.name = content_name;
  content.spec.driver = n.driver;
  content.spec.deletion_policy = "Delete";
  content.spec.source.snapshot_handle = handle;
  content.spec.volume_snapshot_ref.namespace_ = "default";
  content.spec.volume_snapshot_ref.name = n.snapshot;
  ASSERT_TRUE(admin_->Create(content).ok());
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = "default";
  snapshot.metadata.name = n.snapshot;
  snapshot.spec.source.volume_snapshot_content_name = content_name;
  ASSERT_TRUE(admin_->Create(snapshot).ok());
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NE(StartSidecarUnderTest(), nullptr);

  auto ready = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(ready && Ready(*ready)) << "imported VolumeSnapshot never became readyToUse";
  EXPECT_EQ(ready->status->bound_volume_snapshot_content_name, content_name);
  EXPECT_TRUE(ready->status->creation_time.has_value());
  // (No restoreSize: the mock driver's ListSnapshots reports no size.)
  auto imported = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  ASSERT_TRUE(imported->status.has_value());
  EXPECT_EQ(imported->status->snapshot_handle, handle);
  EXPECT_EQ(imported->status->ready_to_use, true);
  EXPECT_EQ(imported->spec.volume_snapshot_ref.uid, ready->metadata.uid);
  EXPECT_EQ(DriverCallsOk("CreateSnapshot"), 1) << "only the test's own create";
  EXPECT_GE(DriverCallsOk("ListSnapshots"), 1);

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot));
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 1);
  EXPECT_FALSE(DriverHasSnapshot(handle)) << "the imported snapshot was not deleted";
}

// §3.5: the controller resolves the class's secret templates into the
// content's deletion-secret annotations; the sidecar reads that Secret and
// hands its data to CreateSnapshot and DeleteSnapshot (the fault driver keeps
// the keys), never to its log. The reserved keys stay out of the parameters.
TEST_P(SnapshotPairTest, SecretsFromClassTemplatesReachCreateAndDeleteButNeverTheLog) {
  const Names n = NamesFor("secrets");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, kFaultVolumes));
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, kFaultVolume);
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(GrantSidecarSecretRead("default"));
  ASSERT_NO_FATAL_FAILURE(
      CreateSecret("default", n.snapshot + "-creds", {{"password", "hunter2-snapshot-secret"}}));
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(
      n.snapshot_class, n.driver, "Delete",
      {{"csi.storage.k8s.io/snapshotter-secret-name", "${volumesnapshot.name}-creds"},
       {"csi.storage.k8s.io/snapshotter-secret-namespace", "${volumesnapshot.namespace}"},
       {"tier", "gold"}}));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  const kube::VolumeSnapshot created =
      CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  EXPECT_EQ(snapshot->status->restore_size, "1Gi");
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;
  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->metadata.annotations[kDeletionSecretName], n.snapshot + "-creds");
  EXPECT_EQ(content->metadata.annotations[kDeletionSecretNamespace], "default");

  nlohmann::json record = DriverSnapshotRecord(DriverSnapshotName(created));
  ASSERT_TRUE(record.is_object()) << DriverState().dump(2);
  EXPECT_EQ(record["secrets"], nlohmann::json::array({"password"}));
  EXPECT_EQ(record["parameters"], nlohmann::json({{"tier", "gold"}}));

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name));
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot));
  const nlohmann::json state = DriverState();
  nlohmann::json deletes = nlohmann::json::array();
  for (const auto& call : state["calls"]) {
    if (call["method"] == "DeleteSnapshot") deletes.push_back(call["request"]["secrets"]);
  }
  EXPECT_EQ(deletes, nlohmann::json::array({nlohmann::json::array({"password"})}));
  EXPECT_EQ(state["existing_snapshots"], nlohmann::json::array());
  EXPECT_EQ(SidecarLog().find("hunter2-snapshot-secret"), std::string::npos)
      << "the secret's value is in the sidecar's log";
}

// §3.4 create step 5: --extra-create-metadata adds the three names to the
// class's parameters.
TEST_P(SnapshotPairTest, ExtraCreateMetadataKeysReachTheDriver) {
  const Names n = NamesFor("metadata");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, kFaultVolumes));
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, kFaultVolume);
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(
      CreateSnapshotClass(n.snapshot_class, n.driver, "Delete", {{"tier", "gold"}}));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NE(StartSidecarUnderTest({"--extra-create-metadata"}), nullptr);
  const kube::VolumeSnapshot created =
      CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  nlohmann::json record = DriverSnapshotRecord(DriverSnapshotName(created));
  ASSERT_TRUE(record.is_object()) << DriverState().dump(2);
  EXPECT_EQ(record["parameters"],
            nlohmann::json({{"tier", "gold"},
                            {"csi.storage.k8s.io/volumesnapshot/name", n.snapshot},
                            {"csi.storage.k8s.io/volumesnapshot/namespace", "default"},
                            {"csi.storage.k8s.io/volumesnapshotcontent/name",
                             "snapcontent-" + created.metadata.uid.str()}}));
}

// Every SnapshotPairTest of this binary runs once per sidecar.
// csi-sidecars --controllers=snapshotter given the same command line
// (docs/csi-sidecars.md).
INSTANTIATE_TEST_SUITE_P(
    CsiSidecars, SnapshotPairTest,
    ::testing::Values(SidecarUnderTest{
        .name = "CsiSidecars",
        .binary = [] { return testsupport::CsiSidecarsAs("snapshotter", CSI_SIDECARS_BIN); }}),
    [](const ::testing::TestParamInfo<SidecarUnderTest>& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Sidecars, SnapshotPairTest,
                         ::testing::Values(UpstreamSidecar(), OurSidecar()),
                         [](const ::testing::TestParamInfo<SidecarUnderTest>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace snapshot_it
