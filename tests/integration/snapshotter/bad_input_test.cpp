// Bad input ends in a clear error status and Warning Event, or is left alone,
// never in a CreateSnapshot call, a leak or a crash (docs/snapshots.md §3.3,
// §3.4 create steps 2 and 4, §9.9). Some contents are made by hand, without
// the controller, to give the sidecar input the controller never writes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

using ::testing::AnyOf;
using ::testing::Eq;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kVolumes[] = "vol-1:1073741824";

bool HasError(const kube::VolumeSnapshotContent& content) {
  return content.status && content.status->error && content.status->error->message;
}

// A content as the controller would make it for a VolumeSnapshot with UID
// `uid` (which need not exist: the sidecar never reads VolumeSnapshots).
kube::VolumeSnapshotContent HandMadeContent(const std::string& name, const std::string& driver,
                                            const std::string& class_name, const std::string& uid) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = name;
  content.spec.driver = driver;
  content.spec.deletion_policy = "Retain";
  content.spec.volume_snapshot_class_name = class_name;
  content.spec.source.volume_handle = "vol-1";
  content.spec.volume_snapshot_ref.namespace_ = "default";
  content.spec.volume_snapshot_ref.name = "snapshot-of-" + name;
  content.spec.volume_snapshot_ref.uid = uid;
  return content;
}

class BadInputPairTest : public SnapshotPairTest {
 protected:
  // A fault driver, a bound PVC, a class with `parameters`, the controller
  // and the sidecar under test, named `n`; then a VolumeSnapshot of the PVC.
  // Returns the content's error once it has one ("" if never).
  std::string ContentErrorFor(const Names& n, kube::StringMap parameters) {
    StartFaultDriver(n.driver, kVolumes);
    CreateBoundPvc("default", n.pvc, n.pv, n.driver, "vol-1");
    CreateSnapshotClass(n.snapshot_class, n.driver, "Delete", std::move(parameters));
    StartSnapshotController();
    EXPECT_NE(StartSidecarUnderTest(), nullptr);
    if (HasFailure()) return "";
    snapshot_ = CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);
    content_name_ = "snapcontent-" + snapshot_.metadata.uid.str();
    auto content = Await<kube::VolumeSnapshotContent>("", content_name_, HasError);
    return content && HasError(*content) ? *content->status->error->message : "";
  }

  kube::VolumeSnapshot snapshot_;
  std::string content_name_;
};

// A content's error is the first attempt's ("Failed to create snapshot: ")
// until a retry rewrites it ("Failed to check and update snapshot content: ",
// §3.4); which one a poll sees depends on timing, in upstream's sidecar too.
::testing::Matcher<const std::string&> CreateFailure(const std::string& cause) {
  return AnyOf(Eq("Failed to create snapshot: " + cause),
               Eq("Failed to check and update snapshot content: " + cause));
}

TEST_P(BadInputPairTest, UnknownReservedParameterKeyIsAnErrorAndNoCreateSnapshot) {
  const std::string cause =
      "failed to remove CSI Parameters of prefixed keys: found unknown parameter key "
      "\"csi.storage.k8s.io/foo\" with reserved namespace csi.storage.k8s.io/";
  const std::string message =
      ContentErrorFor(NamesFor("bad-param"), {{"csi.storage.k8s.io/foo", "bar"}});
  ASSERT_FALSE(HasFailure());
  EXPECT_THAT(message, CreateFailure(cause));
  auto event =
      AwaitEvent("default", "VolumeSnapshotContent", content_name_, "SnapshotCreationFailed");
  ASSERT_TRUE(event.has_value()) << "no SnapshotCreationFailed Event";
  EXPECT_EQ(event->type, "Warning");
  EXPECT_EQ(event->message, "Failed to create snapshot: " + cause);
  auto snapshot = Await<kube::VolumeSnapshot>("default", snapshot_.metadata.name,
                                              [](auto& s) { return s.status && s.status->error; });
  ASSERT_TRUE(snapshot && snapshot->status && snapshot->status->error);
  EXPECT_THAT(*snapshot->status->error->message, CreateFailure(cause))
      << "the controller shows it to the user";
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0);
  EXPECT_TRUE(sidecar().IsRunning());
}

TEST_P(BadInputPairTest, MissingSecretIsAnErrorAndNoCreateSnapshotAndDeletionCompletes) {
  ASSERT_NO_FATAL_FAILURE(GrantSidecarSecretRead("default"));
  const std::string message = ContentErrorFor(
      NamesFor("missing-secret"), {{"csi.storage.k8s.io/snapshotter-secret-name", "absent-creds"},
                                   {"csi.storage.k8s.io/snapshotter-secret-namespace", "default"}});
  ASSERT_FALSE(HasFailure());
  EXPECT_THAT(message, AnyOf(StartsWith("Failed to create snapshot: "),
                             StartsWith("Failed to check and update snapshot content: ")));
  EXPECT_THAT(message, HasSubstr("cannot get credentials for snapshot content"));
  ASSERT_TRUE(
      AwaitEvent("default", "VolumeSnapshotContent", content_name_, "SnapshotCreationFailed"))
      << "no SnapshotCreationFailed Event";
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0);

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", snapshot_.metadata.name).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name_));
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", snapshot_.metadata.name));
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0);
  EXPECT_EQ(DriverState()["existing_snapshots"], nlohmann::json::array());
}

// Both deletion-secret annotations present, one empty: the controller never
// writes that, an operator's edit can.
TEST_P(BadInputPairTest, HalfSetDeletionSecretAnnotationsAreAnErrorAndNoCreateSnapshot) {
  const std::string driver = Unique("half-secret") + ".csi.example.com";
  const std::string class_name = Unique("class-half-secret");
  const std::string content_name = Unique("content-half-secret");
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver, kVolumes));
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(class_name, driver, "Retain"));
  kube::VolumeSnapshotContent content =
      HandMadeContent(content_name, driver, class_name, "5f0c0a4e-0000-4000-8000-00000000000a");
  content.metadata.annotations["snapshot.storage.kubernetes.io/deletion-secret-name"] = "creds";
  content.metadata.annotations["snapshot.storage.kubernetes.io/deletion-secret-namespace"] = "";
  ASSERT_TRUE(admin_->Create(content).ok());
  ASSERT_NE(StartSidecarUnderTest(), nullptr);

  auto failed = Await<kube::VolumeSnapshotContent>("", content_name, HasError);
  ASSERT_TRUE(failed && HasError(*failed)) << "no error status";
  EXPECT_THAT(*failed->status->error->message, HasSubstr("secret name or namespace not specified"));
  EXPECT_EQ(failed->status->ready_to_use, false);
  EXPECT_TRUE(
      AwaitEvent("default", "VolumeSnapshotContent", content_name, "SnapshotCreationFailed"));
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0);
  EXPECT_TRUE(sidecar().IsRunning());
}

// §3.3 isDriverMatch: a content naming our driver but a class of another
// driver is not ours. A content of our driver next to it shows the sidecar
// did its work meanwhile.
TEST_P(BadInputPairTest, ContentWithAClassOfAnotherDriverIsLeftAlone) {
  const std::string driver = Unique("class-match") + ".csi.example.com";
  const std::string mine = Unique("content-mine");
  const std::string theirs = Unique("content-theirs");
  const std::string theirs_uid = "5f0c0a4e-0000-4000-8000-00000000000b";
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver, kVolumes));
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(Unique("class-mine"), driver, "Retain"));
  ASSERT_NO_FATAL_FAILURE(
      CreateSnapshotClass(Unique("class-theirs"), "other.csi.example.com", "Retain"));
  ASSERT_TRUE(
      admin_->Create(HandMadeContent(theirs, driver, Unique("class-theirs"), theirs_uid)).ok());
  ASSERT_TRUE(admin_
                  ->Create(HandMadeContent(mine, driver, Unique("class-mine"),
                                           "5f0c0a4e-0000-4000-8000-00000000000c"))
                  .ok());
  ASSERT_NE(StartSidecarUnderTest(), nullptr);

  auto handled = Await<kube::VolumeSnapshotContent>(
      "", mine, [](const auto& c) { return c.status && c.status->ready_to_use.value_or(false); });
  ASSERT_TRUE(handled && handled->status && handled->status->ready_to_use.value_or(false))
      << "the content of our driver was not handled";
  auto ignored = admin_->Get<kube::VolumeSnapshotContent>("", theirs);
  ASSERT_TRUE(ignored.ok());
  EXPECT_FALSE(ignored->status.has_value()) << "the sidecar wrote the other driver's content";
  EXPECT_TRUE(ignored->metadata.annotations.empty());
  EXPECT_TRUE(DriverSnapshotRecord("snapshot-" + theirs_uid).is_null());
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 1);
  EXPECT_TRUE(EventsAbout("default", "VolumeSnapshotContent", theirs).empty());
}

INSTANTIATE_TEST_SUITE_P(Sidecars, BadInputPairTest,
                         ::testing::Values(UpstreamSidecar(), OurSidecar()),
                         [](const ::testing::TestParamInfo<SidecarUnderTest>& info) {
                           return info.param.name;
                         });

// Upstream checks the parameters after it has added the being-created
// annotation and leaves it there (§3.4 create step 4): the VolumeSnapshot
// then stays Terminating. Ours checks every input first, so nothing holds
// the deletion back.
TEST_F(OursOnlyTest, UnknownReservedParameterKeyLeavesNothingThatBlocksDeletion) {
  const std::string driver = "bad-param-delete.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver, kVolumes));
  CreateBoundPvc("default", "pvc-bad-param-delete", "pv-bad-param-delete", driver, "vol-1");
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-bad-param-delete", driver, "Delete",
                                              {{"csi.storage.k8s.io/foo", "bar"}}));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  ASSERT_NE(StartOurSidecar(), nullptr);
  const kube::VolumeSnapshot created = CreateVolumeSnapshot(
      "default", "snap-bad-param-delete", "pvc-bad-param-delete", "class-bad-param-delete");
  const std::string content_name = "snapcontent-" + created.metadata.uid.str();
  auto failed = Await<kube::VolumeSnapshotContent>("", content_name, HasError);
  ASSERT_TRUE(failed && HasError(*failed)) << "no error status";
  EXPECT_FALSE(failed->metadata.annotations.contains(
      "snapshot.storage.kubernetes.io/volumesnapshot-being-created"));

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", "snap-bad-param-delete").ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>("", content_name));
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", "snap-bad-param-delete"));
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0);
}

// §9.9: upstream accepts the flag and panics on its first snapshot name.
TEST_F(OursOnlyTest, SnapshotNameUuidLength33ExitsOneWithAMessage) {
  ASSERT_NO_FATAL_FAILURE(StartMockDriver("uuid-length.csi.example.com"));
  testsupport::Process* sidecar = StartOurSidecar({"--snapshot-name-uuid-length=33"});
  ASSERT_NE(sidecar, nullptr);
  EXPECT_EQ(sidecar->Wait(), 1);
  EXPECT_THAT(SidecarLog(),
              HasSubstr("Option -snapshot-name-uuid-length must be between -1 and 32, not 33"));
}

}  // namespace
}  // namespace snapshot_it
