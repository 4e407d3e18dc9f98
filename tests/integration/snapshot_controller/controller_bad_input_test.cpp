// Bad input to the controller ends in upstream's error status and Warning
// Event on the VolumeSnapshot (docs/snapshots.md §4.3), never in a content, a
// CreateSnapshot call, a deletion of what must be kept, or a crash; once per
// pairing of controller and sidecar.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/snapshot_controller/controller_pair_fixture.h"

namespace snapshot_it {
namespace {

bool HasError(const kube::VolumeSnapshot& snapshot) {
  return snapshot.status && snapshot.status->error && snapshot.status->error->message;
}

class ControllerBadInputTest : public ControllerPairTest {
 protected:
  // The e2e mock driver named `driver`, the controller and the sidecar under
  // test; the test has failed when one did not start.
  void StartStack(const std::string& driver) {
    ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));
    controller_ = StartControllerUnderTest();
    ASSERT_NE(controller_, nullptr);
    sidecar_ = StartSidecarUnderTest();
    ASSERT_NE(sidecar_, nullptr);
  }

  // VolumeSnapshot default/`name` gets the error status `message`, and a
  // Warning Event `reason` says the same.
  void ExpectSnapshotError(const std::string& name, const std::string& reason,
                           const std::string& message) {
    auto failed = Await<kube::VolumeSnapshot>("default", name, HasError);
    ASSERT_TRUE(failed && HasError(*failed)) << name << " got no error status";
    EXPECT_EQ(*failed->status->error->message, message) << name;
    EXPECT_FALSE(Ready(*failed)) << name;
    auto event = AwaitEvent("default", "VolumeSnapshot", name, reason);
    ASSERT_TRUE(event.has_value()) << "no " << reason << " Event about " << name;
    EXPECT_EQ(event->type, "Warning");
    EXPECT_EQ(event->message, message);
  }

  // No dynamic content exists for `snapshot`.
  void ExpectNoContentFor(const std::string& name) {
    auto snapshot = admin_->Get<kube::VolumeSnapshot>("default", name);
    ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
    auto content =
        admin_->Get<kube::VolumeSnapshotContent>("", "snapcontent-" + snapshot->metadata.uid.str());
    EXPECT_TRUE(!content.ok() && kube::IsNotFound(content.error()))
        << "a content was made for " << name;
  }

  void ExpectStillRunning() {
    EXPECT_TRUE(controller_->IsRunning()) << "the controller exited " << controller_->exit_status();
    EXPECT_TRUE(sidecar_->IsRunning()) << "the sidecar exited " << sidecar_->exit_status();
  }

  testsupport::Process* controller_ = nullptr;
  testsupport::Process* sidecar_ = nullptr;
};

// §4.3 step 0: the default class is the one default class of the claim's
// driver. None at all, only another driver's, or two are errors; no class is
// written into the snapshot and no content is made. (No driver serves these
// claims: the controller fails before it would need one.)
TEST_P(ControllerBadInputTest, DefaultClassMissingOrAmbiguousForThePvcsDriverIsAnError) {
  const Names none = NamesFor("no-default");
  const Names foreign = NamesFor("foreign-default");
  const Names two = NamesFor("two-defaults");
  for (const Names* n : {&none, &foreign, &two}) {
    CreateBoundPvc("default", n->pvc, n->pv, n->driver, "4");
  }
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(none.snapshot_class, none.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(
      CreateDefaultSnapshotClass(foreign.snapshot_class, "other-" + foreign.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(CreateDefaultSnapshotClass(two.snapshot_class, two.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(
      CreateDefaultSnapshotClass(two.snapshot_class + "-second", two.driver, "Retain"));
  ASSERT_NO_FATAL_FAILURE(StartStack(NamesFor("default-errors").driver));
  for (const Names* n : {&none, &foreign, &two}) {
    CreateVolumeSnapshot("default", n->snapshot, n->pvc, std::nullopt);
  }

  const std::string missing =
      "Failed to set default snapshot class with error cannot find default snapshot class";
  ExpectSnapshotError(none.snapshot, "SetDefaultSnapshotClassFailed", missing);
  ExpectSnapshotError(foreign.snapshot, "SetDefaultSnapshotClassFailed", missing);
  ExpectSnapshotError(two.snapshot, "SetDefaultSnapshotClassFailed",
                      "Failed to set default snapshot class with error 2 default snapshot "
                      "classes were found");
  for (const Names* n : {&none, &foreign, &two}) {
    auto snapshot = admin_->Get<kube::VolumeSnapshot>("default", n->snapshot);
    ASSERT_TRUE(snapshot.ok());
    EXPECT_FALSE(snapshot->spec.volume_snapshot_class_name.has_value()) << n->snapshot;
    ExpectNoContentFor(n->snapshot);
  }
  ExpectStillRunning();
}

// A named class of another driver than the claim's: upstream does not compare
// them, and makes the content for the class's driver (§4.3 createSnapshotContent
// step 3), which the claim driver's sidecar leaves alone. A snapshot with a
// class of the right driver shows the sidecar at work meanwhile. Upstream's
// controller binds the snapshot through its status at once; ours writes the
// status first from the content's, which no sidecar gives this one (§9.4).
TEST_P(ControllerBadInputTest, NamedClassOfAnotherDriverGivesAContentTheClaimsDriverNeverCuts) {
  const Names n = NamesFor("foreign-class");
  const Names good = NamesFor("right-class");
  const std::string foreign_driver = "other-" + n.driver;
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, foreign_driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(good.snapshot_class, n.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(StartStack(n.driver));
  const kube::VolumeSnapshot created =
      CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);
  const std::string content_name = "snapcontent-" + created.metadata.uid.str();

  ASSERT_TRUE(Await<kube::VolumeSnapshotContent>("", content_name, [](const auto&) {
    return true;
  })) << "the snapshot never got its content";
  if (!OurControllerUnderTest()) {
    auto bound = Await<kube::VolumeSnapshot>("default", n.snapshot, [](const auto& s) {
      return s.status && s.status->bound_volume_snapshot_content_name;
    });
    ASSERT_TRUE(bound && bound->status && bound->status->bound_volume_snapshot_content_name)
        << "the snapshot was never bound to its content";
    EXPECT_EQ(bound->status->bound_volume_snapshot_content_name, content_name);
  }
  CreateVolumeSnapshot("default", good.snapshot, n.pvc, good.snapshot_class);
  auto ready = Await<kube::VolumeSnapshot>("default", good.snapshot, Ready);
  ASSERT_TRUE(ready && Ready(*ready)) << "the snapshot of the claim's driver never became ready";

  auto content = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(content->spec.driver, foreign_driver);
  EXPECT_EQ(content->spec.source.volume_handle, "4");
  EXPECT_FALSE(content->status.has_value()) << "a sidecar wrote the other driver's content";
  auto snapshot = admin_->Get<kube::VolumeSnapshot>("default", n.snapshot);
  ASSERT_TRUE(snapshot.ok());
  EXPECT_FALSE(Ready(*snapshot));
  EXPECT_FALSE(HasError(*snapshot));
  if (OurControllerUnderTest()) {
    EXPECT_FALSE(snapshot->status.has_value()) << "a status with nothing from the content";
  }
  EXPECT_EQ(DriverCallsOk("CreateSnapshot"), 1) << "only the right class's snapshot";
  ExpectStillRunning();
}

TEST_P(ControllerBadInputTest, UnboundPvcIsAnErrorAndNoContentIsMade) {
  const Names n = NamesFor("unbound");
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = "default";
  claim.metadata.name = n.pvc;
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.storage_class_name = "";  // no provisioner: it stays Pending
  ASSERT_TRUE(admin_->Create(claim).ok());
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(StartStack(n.driver));
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  ExpectSnapshotError(n.snapshot, "SnapshotContentCreationFailed",
                      "Failed to create snapshot content with error failed to get input "
                      "parameters to create snapshot " +
                          n.snapshot + ": \"the PVC " + n.pvc +
                          " is not yet bound to a PV, will not attempt to take a snapshot\"");
  ExpectNoContentFor(n.snapshot);
  EXPECT_EQ(DriverCallsOk("CreateSnapshot"), 0);
  ExpectStillRunning();
}

// createSnapshotContent step 1: no new protection on a claim that is being
// deleted. A finalizer of the test's own keeps the claim Terminating.
TEST_P(ControllerBadInputTest, PvcBeingDeletedIsAnErrorAndNoContentIsMade) {
  const Names n = NamesFor("pvc-deleting");
  kube::PersistentVolumeClaim claim = CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  claim.metadata.finalizers.push_back("example.com/hold-for-test");
  ASSERT_TRUE(admin_->Update(claim).ok());
  ASSERT_TRUE(admin_->Delete<kube::PersistentVolumeClaim>("default", n.pvc).ok());
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(StartStack(n.driver));
  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);

  ExpectSnapshotError(n.snapshot, "SnapshotContentCreationFailed",
                      "Failed to create snapshot content with error snapshot controller failed "
                      "to update " +
                          n.pvc +
                          " on API server: cannot add finalizer on claim because it is being "
                          "deleted");
  ExpectNoContentFor(n.snapshot);
  auto deleting = admin_->Get<kube::PersistentVolumeClaim>("default", n.pvc);
  ASSERT_TRUE(deleting.ok()) << deleting.error().message;
  EXPECT_FALSE(HasFinalizer(deleting->metadata, kPvcAsSourceFinalizer));
  EXPECT_EQ(DriverCallsOk("CreateSnapshot"), 0);
  ExpectStillRunning();
}

// §4.3 syncUnreadySnapshot, pre-provisioned: a content whose ref names
// another VolumeSnapshot is misbound. Deleting the snapshot then leaves the
// content (policy Delete notwithstanding) and the backend snapshot alone: they
// are not its own.
TEST_P(ControllerBadInputTest, ContentBoundToAnotherSnapshotIsMisboundAndKeptOnDeletion) {
  const Names n = NamesFor("misbound");
  const std::string content_name = Unique("content-misbound");
  ASSERT_NO_FATAL_FAILURE(StartStack(n.driver));
  const std::string handle = CreateDriverSnapshot("backup-misbound", "4");
  ASSERT_FALSE(handle.empty());
  kube::VolumeSnapshotContent content;
  content.metadata.name = content_name;
  content.spec.driver = n.driver;
  content.spec.deletion_policy = "Delete";
  content.spec.source.snapshot_handle = handle;
  content.spec.volume_snapshot_ref.namespace_ = "default";
  content.spec.volume_snapshot_ref.name = Unique("snap-someone-else");
  ASSERT_TRUE(admin_->Create(content).ok());
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = "default";
  snapshot.metadata.name = n.snapshot;
  snapshot.spec.source.volume_snapshot_content_name = content_name;
  ASSERT_TRUE(admin_->Create(snapshot).ok());

  ExpectSnapshotError(
      n.snapshot, "SnapshotContentMisbound",
      "VolumeSnapshotContent [" + content_name + "] is bound to a different snapshot");
  auto untouched = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(untouched.ok()) << untouched.error().message;
  EXPECT_EQ(untouched->spec.volume_snapshot_ref.name, Unique("snap-someone-else"));
  EXPECT_EQ(untouched->spec.volume_snapshot_ref.uid, "");

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", n.snapshot).ok());
  ASSERT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", n.snapshot))
      << "the misbound VolumeSnapshot was never released";
  auto kept = admin_->Get<kube::VolumeSnapshotContent>("", content_name);
  ASSERT_TRUE(kept.ok()) << "the other snapshot's content was deleted: " << kept.error().message;
  EXPECT_TRUE(kept->metadata.deletion_timestamp.empty());
  EXPECT_TRUE(DriverHasSnapshot(handle)) << "the other snapshot's backend snapshot was deleted";
  EXPECT_EQ(DriverCallsOk("DeleteSnapshot"), 0);
  ExpectStillRunning();
}

INSTANTIATE_CONTROLLER_PAIRINGS(ControllerBadInputTest);

}  // namespace
}  // namespace snapshot_it
