// docs/provisioner.md §3.7 (data sources) and §3.3 step 8: ContentSourceOf's
// checks of a snapshot to restore and a claim to clone, one case per check
// in upstream's order with upstream's texts; ProtectSource and
// ReleaseSnapshot against the recording API (provisioner_fakes.h).
#include "provisioner/volume_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "provisioner/names.h"
#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Pvc = kube::PersistentVolumeClaim;
using fakes::kCloneFinalizer;
using fakes::kSnapshotFinalizer;

// apps/data asks for 1Gi of class "fast" (driver fakes::kDriver).
Pvc NewClaim() { return fakes::PendingClaim("data", "uid-data"); }

using fakes::BoundContent;
using fakes::ReadySnapshot;
using fakes::SourceClaim;
using fakes::SourceVolume;

DataSource SnapshotSource() {
  return {"VolumeSnapshot", "snap-1", "snapshot.storage.k8s.io", "apps"};
}
DataSource CloneSource() { return {"PersistentVolumeClaim", "src", "", "apps"}; }

class VolumeSourceTest : public ::testing::Test {
 protected:
  // ContentSourceOf for `claim`, after the objects are stored.
  base::Result<csi::v1::VolumeContentSource> Check(const Pvc& claim, const DataSource& source) {
    return ContentSourceOf(Reads(), claim, fakes::DriverClass(), source);
  }
  SourceReads Reads() {
    return {.api = api_, .claims = claims_, .prevent_volume_mode_conversion = prevent_};
  }
  // The error text of a failed check (a success is a test failure).
  std::string ErrorOf(const base::Result<csi::v1::VolumeContentSource>& result) {
    EXPECT_FALSE(result.ok());
    return result.ok() ? "" : result.error().message;
  }
  void PutSnapshot(const kube::VolumeSnapshot& snapshot,
                   const kube::VolumeSnapshotContent& content) {
    api_.PutSnapshot(snapshot);
    api_.PutSnapshotContent(content);
  }
  void PutClone(const Pvc& source, const kube::PersistentVolume& volume) {
    claims_.Upsert(std::make_shared<const Pvc>(source));
    api_.PutVolume(volume);
  }

  base::FakeClock clock_;
  fakes::CallLog log_{clock_};
  fakes::FakeProvisionerApi api_{log_};
  kube::Store<Pvc> claims_;
  bool prevent_ = true;
};

TEST_F(VolumeSourceTest, ReadySnapshotGivesItsContentsHandleFromLiveReads) {
  PutSnapshot(ReadySnapshot(), BoundContent());
  auto source = Check(NewClaim(), SnapshotSource());
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_EQ(source->snapshot().snapshot_id(), "snap-handle-1");
  EXPECT_THAT(log_.All(), ElementsAre("GetSnapshot apps/snap-1", "GetSnapshotContent content-1"));
}

// §3.7: each snapshot check, in upstream's order, with upstream's text.
TEST_F(VolumeSourceTest, SnapshotChecksFailWithUpstreamsTexts) {
  struct Case {
    std::string name;
    std::function<void(kube::VolumeSnapshot&, kube::VolumeSnapshotContent&, Pvc&)> change;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"being deleted",
       [](auto& s, auto&, auto&) { s.metadata.deletion_timestamp = "2026-01-01T00:00:00Z"; },
       "snapshot snap-1 is being deleted"},
      {"no status", [](auto& s, auto&, auto&) { s.status.reset(); }, "snapshot snap-1 not bound"},
      {"not bound",
       [](auto& s, auto&, auto&) { s.status->bound_volume_snapshot_content_name.reset(); },
       "snapshot snap-1 not bound"},
      {"content missing",
       [](auto& s, auto&, auto&) { s.status->bound_volume_snapshot_content_name = "content-2"; },
       "error getting snapshotcontent content-2 for snapshot snap-1"},
      {"content of another snapshot",
       [](auto&, auto& c, auto&) { c.spec.volume_snapshot_ref.uid = "x"; },
       "snapshotcontent content-1 for snapshot snap-1 is bound to a different snapshot"},
      {"content of another driver",
       [](auto&, auto& c, auto&) { c.spec.driver = fakes::kOtherDriver; },
       "snapshotcontent content-1 for snapshot snap-1 is not handled by CSI driver of StorageClass "
       "fast"},
      {"not ready", [](auto& s, auto&, auto&) { s.status->ready_to_use = false; },
       "snapshot snap-1 is not Ready"},
      {"readiness unknown", [](auto& s, auto&, auto&) { s.status->ready_to_use.reset(); },
       "snapshot snap-1 is not Ready"},
      {"no handle", [](auto&, auto& c, auto&) { c.status->snapshot_handle.reset(); },
       "snapshot handle snap-1 is not available"},
      {"content without status", [](auto&, auto& c, auto&) { c.status.reset(); },
       "snapshot handle snap-1 is not available"},
      {"smaller than restoreSize",
       [](auto&, auto&, auto& claim) { claim.spec.requests_storage = "512Mi"; },
       "requested volume size 536870912 is less than the size 1073741824 for the source snapshot "
       "snap-1"},
      {"no size asked", [](auto&, auto&, auto& claim) { claim.spec.requests_storage = ""; },
       "error getting capacity for PVC data when creating snapshot snap-1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    kube::VolumeSnapshot snapshot = ReadySnapshot();
    kube::VolumeSnapshotContent content = BoundContent();
    Pvc claim = NewClaim();
    c.change(snapshot, content, claim);
    PutSnapshot(snapshot, content);
    EXPECT_EQ(ErrorOf(Check(claim, SnapshotSource())), c.error);
  }
}

TEST_F(VolumeSourceTest, SnapshotNotFoundIsWrappedAsUpstreamWrapsIt) {
  EXPECT_EQ(
      ErrorOf(Check(NewClaim(), SnapshotSource())),
      "error getting snapshot snap-1 from api server: volumesnapshots.snapshot.storage.k8s.io "
      "\"snap-1\" not found");
}

// #1448: a restore that began before the snapshot's deletion goes on.
TEST_F(VolumeSourceTest, SnapshotBeingDeletedWithOurFinalizerStillServes) {
  kube::VolumeSnapshot snapshot = ReadySnapshot();
  snapshot.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  snapshot.metadata.finalizers.emplace_back(kSnapshotFinalizer);
  PutSnapshot(snapshot, BoundContent());
  auto source = Check(NewClaim(), SnapshotSource());
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_EQ(source->snapshot().snapshot_id(), "snap-handle-1");
}

TEST_F(VolumeSourceTest, LargerThanRestoreSizeOrNoRestoreSizeIsFine) {
  for (std::optional<std::string> restore_size :
       {std::optional<std::string>("512Mi"), std::optional<std::string>()}) {
    kube::VolumeSnapshot snapshot = ReadySnapshot();
    snapshot.status->restore_size = restore_size;
    PutSnapshot(snapshot, BoundContent());
    EXPECT_TRUE(Check(NewClaim(), SnapshotSource()).ok());
  }
}

// --prevent-volume-mode-conversion: the content's sourceVolumeMode against
// the claim's volumeMode, and the allow-volume-mode-change annotation.
TEST_F(VolumeSourceTest, VolumeModeConversionNeedsTheContentsPermission) {
  const std::string prefix =
      "requested volume apps/data modifies the mode of the source volume but does not have "
      "permission to do so. ";
  struct Case {
    std::string name;
    std::optional<std::string> annotation;  // allow-volume-mode-change
    bool prevent;
    std::string error;  // "" = allowed
  };
  const std::vector<Case> cases = {
      {"no annotation", std::nullopt, true,
       prefix +
           "snapshot.storage.kubernetes.io/allow-volume-mode-change annotation is not present on "
           "snapshotcontent content-1"},
      {"not a bool", "yes", true,
       prefix +
           "failed to convert snapshot.storage.kubernetes.io/allow-volume-mode-change annotation "
           "value to boolean with error: strconv.ParseBool: parsing \"yes\": invalid syntax"},
      {"false", "false", true,
       prefix + "snapshot.storage.kubernetes.io/allow-volume-mode-change is set to false on "
                "snapshotcontent content-1"},
      {"true", "true", true, ""},
      {"flag off", std::nullopt, false, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    kube::VolumeSnapshotContent content = BoundContent();
    content.spec.source_volume_mode = std::string("Filesystem");
    if (c.annotation) {
      content.metadata.annotations[std::string(kAllowVolumeModeChangeAnnotation)] = *c.annotation;
    }
    PutSnapshot(ReadySnapshot(), content);
    Pvc claim = NewClaim();
    claim.spec.volume_mode = "Block";
    prevent_ = c.prevent;
    auto result = Check(claim, SnapshotSource());
    if (c.error.empty()) {
      EXPECT_TRUE(result.ok()) << result.error().message;
    } else {
      EXPECT_EQ(ErrorOf(result), c.error);
    }
  }
}

// Upstream compares only when both modes are set.
TEST_F(VolumeSourceTest, VolumeModeIsComparedOnlyWhenBothAreSet) {
  kube::VolumeSnapshotContent content = BoundContent();
  content.spec.source_volume_mode = std::string("Block");
  PutSnapshot(ReadySnapshot(), content);
  Pvc claim = NewClaim();
  claim.spec.volume_mode = "";
  EXPECT_TRUE(Check(claim, SnapshotSource()).ok());
  claim.spec.volume_mode = "Block";
  EXPECT_TRUE(Check(claim, SnapshotSource()).ok());
}

TEST_F(VolumeSourceTest, BoundSourceClaimGivesItsVolumesHandle) {
  PutClone(SourceClaim(), SourceVolume());
  auto source = Check(NewClaim(), CloneSource());
  ASSERT_TRUE(source.ok()) << source.error().message;
  EXPECT_EQ(source->volume().volume_id(), "vol-pv-src");
  // The source claim comes from the cache, its PV from the API.
  EXPECT_THAT(log_.All(), ElementsAre("GetVolume pv-src"));
}

// §3.7: each clone check, in upstream's order, with upstream's text.
TEST_F(VolumeSourceTest, CloneChecksFailWithUpstreamsTexts) {
  const std::string invalid = "claim in dataSource not bound or invalid";
  struct Case {
    std::string name;
    std::function<void(Pvc& source, kube::PersistentVolume&, Pvc& claim)> change;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"source pending", [](auto& s, auto&, auto&) { s.status.phase = "Pending"; },
       "the PVC DataSource src must have a status of Bound.  Got {Pending [] map[] [] map[] map[] "
       "<nil> <nil>}"},
      {"source deleting",
       [](auto& s, auto&, auto&) { s.metadata.deletion_timestamp = "2026-01-01T00:00:00Z"; },
       "the PVC DataSource src is currently being deleted"},
      {"source without class", [](auto& s, auto&, auto&) { s.spec.storage_class_name.reset(); },
       "the source PVC (src) storageclass cannot be empty"},
      {"claim without class", [](auto&, auto&, auto& c) { c.spec.storage_class_name.reset(); },
       "the requested PVC (data) storageclass cannot be empty"},
      {"smaller than the source's request",
       [](auto& s, auto&, auto&) { s.spec.requests_storage = "2Gi"; },
       "error, new PVC request must be greater than or equal in size to the specified PVC data "
       "source, requested 1073741824 but source is 2147483648"},
      {"source without volume", [](auto& s, auto&, auto&) { s.spec.volume_name = ""; },
       "volume name is empty in source PVC src"},
      {"PV missing", [](auto& s, auto&, auto&) { s.spec.volume_name = "pv-gone"; }, invalid},
      {"PV not CSI", [](auto&, auto& v, auto&) { v.spec.source = std::monostate(); }, invalid},
      {"PV of another driver",
       [](auto&, auto& v, auto&) {
         std::get<kube::CSIPersistentVolumeSource>(v.spec.source).driver = fakes::kOtherDriver;
       },
       invalid},
      {"PV without claimRef", [](auto&, auto& v, auto&) { v.spec.claim_ref.reset(); }, invalid},
      {"PV bound to another claim", [](auto&, auto& v, auto&) { v.spec.claim_ref->uid = "uid-x"; },
       invalid},
      {"PV released", [](auto&, auto& v, auto&) { v.status.phase = "Released"; }, invalid},
      {"Block source, Filesystem clone",
       [](auto&, auto& v, auto&) { v.spec.volume_mode = "Block"; },
       "the source PVC and destination PVCs must have the same volume mode for cloning.  Source "
       "is Block, but new PVC requested Filesystem"},
      {"Filesystem source, Block clone",
       [](auto&, auto&, auto& c) { c.spec.volume_mode = "Block"; },
       "the source PVC and destination PVCs must have the same volume mode for cloning.  Source "
       "is Filesystem, but new PVC requested Block"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Pvc source = SourceClaim();
    kube::PersistentVolume volume = SourceVolume();
    Pvc claim = NewClaim();
    c.change(source, volume, claim);
    PutClone(source, volume);
    EXPECT_EQ(ErrorOf(Check(claim, CloneSource())), c.error);
  }
}

TEST_F(VolumeSourceTest, SourceClaimMissingFromTheCacheIsUpstreamsListerError) {
  EXPECT_EQ(ErrorOf(Check(NewClaim(), CloneSource())),
            "error getting PVC src (namespace \"apps\") from api server: persistentvolumeclaim "
            "\"src\" not found");
  EXPECT_THAT(log_.All(), IsEmpty());
}

TEST_F(VolumeSourceTest, BlockCloneOfABlockSourceIsFine) {
  kube::PersistentVolume volume = SourceVolume();
  volume.spec.volume_mode = "Block";
  PutClone(SourceClaim(), volume);
  Pvc claim = NewClaim();
  claim.spec.volume_mode = "Block";
  EXPECT_TRUE(Check(claim, CloneSource()).ok());
}

// §3.3 step 8: the finalizers, by read and update (the fake logs them).
TEST_F(VolumeSourceTest, ProtectSourceAddsTheSourcesFinalizer) {
  ASSERT_TRUE(ProtectSource(Reads(), SnapshotSource()).ok());
  claims_.Upsert(std::make_shared<const Pvc>(SourceClaim()));
  ASSERT_TRUE(ProtectSource(Reads(), CloneSource()).ok());
  EXPECT_THAT(log_.All(),
              ElementsAre("SNAPSHOT-FINALIZER apps/snap-1: +" + std::string(kSnapshotFinalizer),
                          "FINALIZER apps/src: +" + std::string(kCloneFinalizer)));
}

TEST_F(VolumeSourceTest, SourceClaimCachedWithItsFinalizerIsNotWrittenAgain) {
  Pvc source = SourceClaim();
  source.metadata.finalizers.emplace_back(kCloneFinalizer);
  claims_.Upsert(std::make_shared<const Pvc>(source));
  ASSERT_TRUE(ProtectSource(Reads(), CloneSource()).ok());
  EXPECT_THAT(log_.All(), IsEmpty());
}

// Upstream goes on without the snapshot's protection when RBAC refuses it.
TEST_F(VolumeSourceTest, ForbiddenSnapshotFinalizerIsNoErrorOtherErrorsAre) {
  api_.Fail("SNAPSHOT-FINALIZER", "apps/snap-1",
            {base::Error::Http(403, "forbidden"), fakes::ServerError()});
  EXPECT_TRUE(ProtectSource(Reads(), SnapshotSource()).ok());
  base::Status second = ProtectSource(Reads(), SnapshotSource());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().message, fakes::ServerError().message);
  api_.Fail("FINALIZER", "apps/src", {base::Error::Http(403, "forbidden")});
  EXPECT_FALSE(ProtectSource(Reads(), CloneSource()).ok());
}

TEST_F(VolumeSourceTest, ReleaseSnapshotIgnoresGoneAndForbiddenOnly) {
  api_.Fail("SNAPSHOT-FINALIZER", "apps/snap-1",
            {fakes::NotFound("volumesnapshots", "snap-1"), base::Error::Http(403, "forbidden"),
             fakes::ServerError()});
  EXPECT_TRUE(ReleaseSnapshot(api_, "apps", "snap-1").ok());
  EXPECT_TRUE(ReleaseSnapshot(api_, "apps", "snap-1").ok());
  EXPECT_FALSE(ReleaseSnapshot(api_, "apps", "snap-1").ok());
  EXPECT_EQ(log_.Count("SNAPSHOT-FINALIZER", "apps/snap-1: -" + std::string(kSnapshotFinalizer)),
            3u);
}

// §3.7: a dataSourceRef naming another namespace, with the gate: a
// ReferenceGrant of that namespace must let claims of the claim's namespace
// use the object's group and kind, and its name (or every name).
struct GrantCase {
  std::string name;
  std::string grant_namespace;
  kube::ReferenceGrantFrom from;
  kube::ReferenceGrantTo to;
  bool granted;
};

class ReferenceGrantTest : public ::testing::TestWithParam<GrantCase> {};

TEST_P(ReferenceGrantTest, GrantMatchesUpstreams) {
  const GrantCase& test = GetParam();
  Pvc claim = NewClaim();  // apps/data
  claim.spec.data_source_ref = kube::TypedObjectReference{.api_group = std::string(kSnapshotGroup),
                                                          .kind = "VolumeSnapshot",
                                                          .name = "nightly",
                                                          .namespace_ = "backups"};
  kube::Store<kube::ReferenceGrant> grants;
  auto grant = std::make_shared<kube::ReferenceGrant>();
  grant->metadata.namespace_ = test.grant_namespace;
  grant->metadata.name = "grant";
  grant->spec.from = {test.from};
  grant->spec.to = {test.to};
  grants.Upsert(grant);
  auto source = DataSourceOf(claim, &grants);
  if (test.granted) {
    ASSERT_TRUE(source.ok()) << source.error().message;
    ASSERT_TRUE(source->has_value());
    EXPECT_EQ((*source)->namespace_, "backups");
    EXPECT_EQ((*source)->name, "nightly");
  } else {
    ASSERT_FALSE(source.ok());
    EXPECT_EQ(
        source.error().message,
        "accessing backups/nightly of VolumeSnapshot dataSource from apps/data isn't allowed");
  }
}

const kube::ReferenceGrantFrom kFromApps{"", "PersistentVolumeClaim", "apps"};
const kube::ReferenceGrantTo kToSnapshots{std::string(kSnapshotGroup), "VolumeSnapshot",
                                          std::nullopt};

INSTANTIATE_TEST_SUITE_P(
    Cases, ReferenceGrantTest,
    ::testing::Values(
        GrantCase{"EveryNameOfTheKind", "backups", kFromApps, kToSnapshots, true},
        GrantCase{"EmptyNameIsEveryName",
                  "backups",
                  kFromApps,
                  {std::string(kSnapshotGroup), "VolumeSnapshot", ""},
                  true},
        GrantCase{"ThatName",
                  "backups",
                  kFromApps,
                  {std::string(kSnapshotGroup), "VolumeSnapshot", "nightly"},
                  true},
        GrantCase{"AnotherName",
                  "backups",
                  kFromApps,
                  {std::string(kSnapshotGroup), "VolumeSnapshot", "weekly"},
                  false},
        GrantCase{"AnotherKind",
                  "backups",
                  kFromApps,
                  {std::string(kSnapshotGroup), "VolumeSnapshotContent", std::nullopt},
                  false},
        GrantCase{
            "AnotherGroup", "backups", kFromApps, {"", "VolumeSnapshot", std::nullopt}, false},
        GrantCase{"FromAnotherNamespace",
                  "backups",
                  {"", "PersistentVolumeClaim", "web"},
                  kToSnapshots,
                  false},
        GrantCase{"FromAnotherKind", "backups", {"", "Pod", "apps"}, kToSnapshots, false},
        GrantCase{"FromANonCoreGroup",
                  "backups",
                  {"example.com", "PersistentVolumeClaim", "apps"},
                  kToSnapshots,
                  false},
        GrantCase{"GrantInAnotherNamespace", "apps", kFromApps, kToSnapshots, false}),
    [](const ::testing::TestParamInfo<GrantCase>& info) { return info.param.name; });

TEST(CrossNamespaceSourceTest, WithoutTheGateTheNamespaceIsRefused) {
  Pvc claim = NewClaim();
  claim.spec.data_source_ref = kube::TypedObjectReference{.api_group = std::string(kSnapshotGroup),
                                                          .kind = "VolumeSnapshot",
                                                          .name = "nightly",
                                                          .namespace_ = "backups"};
  auto source = DataSourceOf(claim);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.error().message,
            "dataSourceRef namespace specified but the CrossNamespaceVolumeDataSource feature is "
            "disabled");
  // The claim's own namespace named explicitly needs no grant.
  claim.spec.data_source_ref->namespace_ = "apps";
  kube::Store<kube::ReferenceGrant> no_grants;
  auto own = DataSourceOf(claim, &no_grants);
  ASSERT_TRUE(own.ok()) << own.error().message;
  EXPECT_EQ((*own)->namespace_, "apps");
}

}  // namespace
}  // namespace provisioner
