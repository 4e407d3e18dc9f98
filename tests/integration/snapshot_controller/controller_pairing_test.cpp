// A snapshot's life as the controller leads it (docs/snapshots.md §4.3-§4.6),
// once per pairing of controller and sidecar: the default class or a named
// one, a pre-provisioned content, deletion under Delete and Retain, the source
// claim's finalizer, a deletion that waits for a restore, and the `cancel`
// metric of a snapshot deleted before it was ready.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "tests/integration/snapshot_controller/controller_pair_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace snapshot_it {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr char kFaultVolume[] = "vol-1";
constexpr char kFaultVolumes[] = "vol-1:1073741824";  // 1 GiB

constexpr char kAsSourceFinalizer[] =
    "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection";
constexpr char kBoundFinalizer[] = "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection";
constexpr char kContentFinalizer[] =
    "snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection";
constexpr char kBeingDeleted[] = "snapshot.storage.kubernetes.io/volumesnapshot-being-deleted";

// An Event that AwaitEvent found is Normal and says `message`.
void ExpectNormalEvent(const std::optional<kube::Event>& event, const std::string& message) {
  ASSERT_TRUE(event.has_value()) << "no Event";
  EXPECT_EQ(event->type, "Normal");
  EXPECT_EQ(event->message, message);
}

TEST_P(ControllerPairTest, DefaultClassOfThePvcsDriverIsSetAndTheSnapshotBecomesReady) {
  const Names n = NamesFor("default-class");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  // Only the default class of the claim's driver qualifies (§4.3 step 0).
  ASSERT_NO_FATAL_FAILURE(CreateDefaultSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(Unique("class-not-default"), n.driver, "Retain"));
  ASSERT_NO_FATAL_FAILURE(CreateDefaultSnapshotClass(Unique("class-default-of-another-driver"),
                                                     "other-" + n.driver, "Retain"));
  ASSERT_NE(StartControllerUnderTest(), nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, std::nullopt);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  EXPECT_EQ(snapshot->spec.volume_snapshot_class_name, n.snapshot_class);
  auto content = admin_->Get<kube::VolumeSnapshotContent>(
      "", *snapshot->status->bound_volume_snapshot_content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->spec.volume_snapshot_class_name, n.snapshot_class);
  EXPECT_EQ(content->spec.deletion_policy, "Delete");
  EXPECT_EQ(content->spec.driver, n.driver);

  const std::string key = "default/" + n.snapshot;
  ExpectNormalEvent(AwaitEvent("default", "VolumeSnapshot", n.snapshot, "CreatingSnapshot"),
                    "Waiting for a snapshot " + key + " to be created by the CSI driver.");
  ExpectNormalEvent(AwaitEvent("default", "VolumeSnapshot", n.snapshot, "SnapshotCreated"),
                    "Snapshot " + key + " was successfully created by the CSI driver.");
  ExpectNormalEvent(AwaitEvent("default", "VolumeSnapshot", n.snapshot, "SnapshotReady"),
                    "Snapshot " + key + " is ready to use.");
}

TEST_P(ControllerPairTest, NamedClassSnapshotIsDeletedWithItsContentAndBackendSnapshotUnderDelete) {
  const Names n = NamesFor("named-delete");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));  // volume "4"
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NE(StartControllerUnderTest(), nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  const kube::VolumeSnapshot created =
      CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  EXPECT_TRUE(snapshot->status->creation_time.has_value());
  EXPECT_EQ(snapshot->status->restore_size, "100Gi");
  EXPECT_FALSE(snapshot->status->error.has_value());
  const std::string content_name = "snapcontent-" + created.metadata.uid.str();
  EXPECT_EQ(snapshot->status->bound_volume_snapshot_content_name, content_name);
  // Ready and bound under Delete: both snapshot finalizers (§4.3 step 4).
  auto finalized = Await<kube::VolumeSnapshot>("default", n.snapshot, [](const auto& s) {
    return HasFinalizer(s.metadata, kAsSourceFinalizer) &&
           HasFinalizer(s.metadata, kBoundFinalizer);
  });
  ASSERT_TRUE(finalized);
  EXPECT_THAT(finalized->metadata.finalizers,
              UnorderedElementsAre(kAsSourceFinalizer, kBoundFinalizer));

  auto content = Await<kube::VolumeSnapshotContent>(
      "", content_name, [](const auto& c) { return HasFinalizer(c.metadata, kContentFinalizer); });
  ASSERT_TRUE(content) << "no content " << content_name;
  EXPECT_TRUE(HasFinalizer(content->metadata, kContentFinalizer));
  EXPECT_EQ(content->spec.driver, n.driver);
  EXPECT_EQ(content->spec.deletion_policy, "Delete");
  EXPECT_EQ(content->spec.volume_snapshot_class_name, n.snapshot_class);
  EXPECT_EQ(content->spec.source.volume_handle, "4");
  EXPECT_FALSE(content->spec.source.snapshot_handle.has_value());
  // --prevent-volume-mode-conversion is on by default: the PV's mode.
  EXPECT_EQ(content->spec.source_volume_mode, "Filesystem");
  EXPECT_EQ(content->spec.volume_snapshot_ref.kind, "VolumeSnapshot");
  EXPECT_EQ(content->spec.volume_snapshot_ref.namespace_, "default");
  EXPECT_EQ(content->spec.volume_snapshot_ref.name, n.snapshot);
  EXPECT_EQ(content->spec.volume_snapshot_ref.uid, created.metadata.uid);
  ASSERT_TRUE(content->status && content->status->snapshot_handle);
  const std::string handle = *content->status->snapshot_handle;
  EXPECT_TRUE(DriverHasSnapshot(handle));

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "VolumeSnapshot not released";
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name))
      << "VolumeSnapshotContent not deleted";
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 1);
  EXPECT_FALSE(DriverHasSnapshot(handle)) << "the driver still has snapshot " << handle;
}

TEST_P(ControllerPairTest, RetainKeepsTheContentAndBackendSnapshotOnceTheSnapshotIsDeleted) {
  const Names n = NamesFor("named-retain");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Retain"));
  ASSERT_NE(StartControllerUnderTest(), nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;
  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "VolumeSnapshot not released";

  // Once the VolumeSnapshot is gone nothing is left to wait for: the content
  // must be there now, marked (§4.5 step 4, whatever the policy), not deleted.
  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << "Retain content was deleted: " << content.error().message;
  EXPECT_TRUE(content->metadata.deletion_timestamp.empty());
  EXPECT_EQ(content->metadata.annotations[kBeingDeleted], "yes");
  ASSERT_TRUE(content->status && content->status->snapshot_handle);
  EXPECT_TRUE(DriverHasSnapshot(*content->status->snapshot_handle));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 0);
}

// §4.3 syncUnreadySnapshot, pre-provisioned: the controller binds the content
// by its ref's uid; the sidecar checks the handle; deleting under Delete
// deletes the imported snapshot too.
TEST_P(ControllerPairTest, PreProvisionedContentIsBoundToItsSnapshotAndDeletedUnderDelete) {
  const Names n = NamesFor("static");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));
  const std::string handle = CreateDriverSnapshot("backup-of-4", "4");
  ASSERT_FALSE(handle.empty());
  const std::string content_name = Unique("content-static");
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
  auto created = admin_->Create(snapshot);
  ASSERT_TRUE(created.ok()) << created.error().message;
  ASSERT_NE(StartControllerUnderTest(), nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);

  auto ready = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(ready && Ready(*ready)) << "pre-provisioned VolumeSnapshot never became readyToUse";
  EXPECT_EQ(ready->status->bound_volume_snapshot_content_name, content_name);
  EXPECT_TRUE(ready->status->creation_time.has_value());
  auto bound = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(bound.ok()) << bound.error().message;
  EXPECT_EQ(bound->spec.volume_snapshot_ref.uid, created->metadata.uid);
  EXPECT_EQ(bound->status->snapshot_handle, handle);
  EXPECT_EQ(DriverCallsOk("CreateSnapshot"), 1) << "only the test's own create";

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot));
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 1);
  EXPECT_FALSE(DriverHasSnapshot(handle)) << "the pre-provisioned snapshot was not deleted";
}

// §4.3 step 1 and createSnapshotContent step 1: the claim is protected from
// before the content exists until its last unready snapshot is ready, and let
// go of as the snapshot turns ready, not at a later resync: the resync period
// is far longer than the wait. The driver fails CreateSnapshot (a retried,
// non-final code) to hold the snapshot unready for as long as the test looks,
// then cuts it unready: it turns ready at the sidecar's next call, whose
// status is the last write to the content our sidecar makes, so no later
// event of the sidecar's brings the controller back to the claim.
TEST_P(ControllerPairTest, SourcePvcKeepsTheProtectionFinalizerUntilTheSnapshotIsReady) {
  const Names n = NamesFor("pvc-finalizer");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, kFaultVolumes));
  WriteFaults(R"({"CreateSnapshot": [{"code": "UNAVAILABLE", "message": "busy"}]})");
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, kFaultVolume);
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NE(StartControllerUnderTest({"--resync-period=1h"}), nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  auto protected_pvc = Await<kube::PersistentVolumeClaim>("default", n.pvc, [](const auto& c) {
    return HasFinalizer(c.metadata, kPvcAsSourceFinalizer);
  });
  ASSERT_TRUE(protected_pvc && HasFinalizer(protected_pvc->metadata, kPvcAsSourceFinalizer))
      << "the source PVC never got " << kPvcAsSourceFinalizer;
  ASSERT_TRUE(Eventually([&] { return DriverCalls("CreateSnapshot") >= 1; }))
      << "no CreateSnapshot call";
  auto unready = admin_->Get<kube::VolumeSnapshot>("default", n.snapshot);
  ASSERT_TRUE(unready.ok());
  ASSERT_FALSE(Ready(*unready));
  // Still there after the failed create: the snapshot is not ready.
  auto still = admin_->Get<kube::PersistentVolumeClaim>("default", n.pvc);
  ASSERT_TRUE(still.ok());
  EXPECT_TRUE(HasFinalizer(still->metadata, kPvcAsSourceFinalizer));

  WriteFaults(R"({"CreateSnapshot": [{"ready_after": 2}]})");
  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  auto released = Await<kube::PersistentVolumeClaim>("default", n.pvc, [](const auto& c) {
    return !HasFinalizer(c.metadata, kPvcAsSourceFinalizer);
  });
  ASSERT_TRUE(released);
  EXPECT_FALSE(HasFinalizer(released->metadata, kPvcAsSourceFinalizer))
      << "the finalizer stayed on the source PVC of a ready snapshot";
}

// §4.5 step 2 and §9.7: a Pending claim restoring from the snapshot holds its
// deletion back with a Warning; once that claim is gone the deletion
// completes. Upstream's message names no claim, ours names it.
TEST_P(ControllerPairTest, DeletionWaitsWhileAPendingPvcRestoresFromTheSnapshotThenProceeds) {
  const Names n = NamesFor("restore");
  const std::string restore_pvc = Unique("pvc-restoring");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NE(StartControllerUnderTest(), nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);
  // A claim to restore from the snapshot; no provisioner runs, so it stays
  // Pending (the API server's default phase). Made before the snapshot is
  // ready, so the controller has long seen it when the deletion comes.
  kube::PersistentVolumeClaim restoring;
  restoring.metadata.namespace_ = "default";
  restoring.metadata.name = restore_pvc;
  restoring.spec.access_modes = {"ReadWriteOnce"};
  restoring.spec.requests_storage = "1Gi";
  restoring.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = "snapshot.storage.k8s.io", .kind = "VolumeSnapshot", .name = n.snapshot};
  auto restore = admin_->Create(restoring);
  ASSERT_TRUE(restore.ok()) << restore.error().message;
  ASSERT_EQ(restore->status.phase, "Pending");
  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  ASSERT_TRUE(snapshot && Ready(*snapshot)) << "VolumeSnapshot never became readyToUse";
  const std::string content_name = *snapshot->status->bound_volume_snapshot_content_name;
  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok() && content->status && content->status->snapshot_handle);
  const std::string handle = *content->status->snapshot_handle;

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  auto pending = AwaitEvent("default", "VolumeSnapshot", n.snapshot, "SnapshotDeletePending");
  ASSERT_TRUE(pending.has_value()) << "no SnapshotDeletePending Event";
  EXPECT_EQ(pending->type, "Warning");
  if (OurControllerUnderTest()) {
    EXPECT_THAT(pending->message, HasSubstr(restore_pvc)) << "§9.7: ours names the claim";
  } else {
    EXPECT_EQ(pending->message, "Snapshot is being used to restore a PVC");
  }
  // Held back: the snapshot is Terminating, its content and the backend
  // snapshot are untouched.
  auto held = admin_->Get<kube::VolumeSnapshot>("default", n.snapshot);
  ASSERT_TRUE(held.ok()) << "the VolumeSnapshot went while a claim restored from it";
  EXPECT_FALSE(held->metadata.deletion_timestamp.empty());
  auto kept = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(kept.ok()) << "the content went while a claim restored from it";
  EXPECT_TRUE(kept->metadata.deletion_timestamp.empty());
  EXPECT_TRUE(DriverHasSnapshot(handle));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 0);

  ASSERT_TRUE(admin_->Delete<kube::PersistentVolumeClaim>("default", restore_pvc).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "deletion did not proceed once the restoring claim was gone";
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name));
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 1);
  EXPECT_FALSE(DriverHasSnapshot(handle));
}

// The count of the snapshot_controller_operation_total_seconds sample with
// exactly `labels` (in any order) in a /metrics body, or -1.
double OperationCount(const std::string& body, const std::map<std::string, std::string>& labels) {
  const std::string prefix = "snapshot_controller_operation_total_seconds_count{";
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const auto close = line.find('}');
    if (close == std::string::npos) continue;
    std::map<std::string, std::string> found;
    std::istringstream pairs(line.substr(prefix.size(), close - prefix.size()));
    for (std::string pair; std::getline(pairs, pair, ',');) {
      const auto eq = pair.find('=');
      if (eq == std::string::npos || pair.size() < eq + 3) continue;
      found[pair.substr(0, eq)] = pair.substr(eq + 2, pair.size() - eq - 3);  // unquoted
    }
    if (found == labels) return std::stod(line.substr(close + 1));
  }
  return -1;
}

// §4.6: a snapshot deleted before it was ready records its pending
// CreateSnapshotAndReady as `cancel`. The driver cuts the snapshot but never
// reports it ready, so CreateSnapshot itself completes.
TEST_P(ControllerPairTest, SnapshotDeletedBeforeReadyIsRecordedAsCancelledInTheMetrics) {
  const Names n = NamesFor("cancel");
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(n.driver, kFaultVolumes));
  WriteFaults(R"({"CreateSnapshot": [{"never_ready": true}]})");
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, kFaultVolume);
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NE(StartControllerUnderTest({"--http-endpoint=127.0.0.1:" + std::to_string(*port)}),
            nullptr);
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);
  auto created = Await<kube::VolumeSnapshot>(
      "default", n.snapshot, [](const auto& s) { return s.status && s.status->creation_time; });
  ASSERT_TRUE(created && created->status && created->status->creation_time)
      << "the snapshot was never cut";
  ASSERT_FALSE(Ready(*created));

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  ASSERT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "VolumeSnapshot not released";
  EXPECT_EQ(DriverState()["existing_snapshots"], nlohmann::json::array()) << "the snapshot leaked";

  auto labels = [&](const std::string& operation, const std::string& status) {
    return std::map<std::string, std::string>{{"driver_name", n.driver},
                                              {"operation_name", operation},
                                              {"operation_status", status},
                                              {"snapshot_type", "dynamic"}};
  };
  std::string body;
  // The controller records the deletion once its informer has seen it.
  EXPECT_TRUE(Eventually([&] {
    body = testsupport::HttpBody(testsupport::HttpGet(*port, "/metrics"));
    return OperationCount(body, labels("CreateSnapshotAndReady", "cancel")) >= 0;
  })) << body;
  EXPECT_EQ(OperationCount(body, labels("CreateSnapshotAndReady", "cancel")), 1) << body;
  EXPECT_EQ(OperationCount(body, labels("CreateSnapshotAndReady", "success")), -1) << body;
  EXPECT_EQ(OperationCount(body, labels("CreateSnapshot", "success")), 1) << body;
  EXPECT_EQ(OperationCount(body, labels("DeleteSnapshot", "success")), 1) << body;
}

INSTANTIATE_CONTROLLER_PAIRINGS(ControllerPairTest);

}  // namespace
}  // namespace snapshot_it
