#include "attacher/event_filters.h"

#include <gtest/gtest.h>

#include <functional>

#include "attacher/names.h"
#include "controller_fakes.h"

namespace attacher {
namespace {

using testing::kDriver;
using testing::MakeCsiPv;
using testing::MakeVa;

kube::VolumeError Error(std::string message) {
  kube::VolumeError error;
  error.time = "2024-01-01T00:00:00Z";
  error.message = std::move(message);
  return error;
}

struct VaUpdateCase {
  std::string name;
  // Edits the new object; its resourceVersion is bumped unless `resync`.
  std::function<void(kube::VolumeAttachment&)> change;
  bool resync = false;
  bool want_enqueue;
};

class VolumeAttachmentUpdateFilter : public ::testing::TestWithParam<VaUpdateCase> {};

TEST_P(VolumeAttachmentUpdateFilter, EnqueuesUnlessOnlyErrorsChanged) {
  const VaUpdateCase& c = GetParam();
  kube::VolumeAttachment old_va = MakeVa("va-1");
  old_va.status.attach_error = Error("old attach failure");
  kube::VolumeAttachment new_va = old_va;
  if (!c.resync) new_va.metadata.resource_version = "2";
  c.change(new_va);
  EXPECT_EQ(ShouldEnqueueVolumeAttachmentUpdate(old_va, new_va), c.want_enqueue);
}

INSTANTIATE_TEST_SUITE_P(
    Behavior51, VolumeAttachmentUpdateFilter,
    ::testing::Values(
        VaUpdateCase{"ResyncSameObject", [](auto&) {}, true, true},
        VaUpdateCase{"ResyncEvenIfOnlyErrorDiffers",
                     [](auto& va) { va.status.attach_error = Error("new"); }, true, true},
        VaUpdateCase{"OnlyResourceVersionChanged", [](auto&) {}, false, false},
        VaUpdateCase{"OnlyAttachErrorChanged",
                     [](auto& va) { va.status.attach_error = Error("new attach failure"); }, false,
                     false},
        VaUpdateCase{"OnlyAttachErrorCleared", [](auto& va) { va.status.attach_error.reset(); },
                     false, false},
        VaUpdateCase{"OnlyDetachErrorSet",
                     [](auto& va) { va.status.detach_error = Error("detach failure"); }, false,
                     false},
        VaUpdateCase{"AttachedChangedWithError",
                     [](auto& va) {
                       va.status.attached = true;
                       va.status.attach_error.reset();
                     },
                     false, true},
        VaUpdateCase{"AttachmentMetadataChanged",
                     [](auto& va) {
                       va.status.attachment_metadata = {{"lun", "1"}};
                     },
                     false, true},
        VaUpdateCase{"DeletionTimestampSet",
                     [](auto& va) { va.metadata.deletion_timestamp = "2024-01-01T00:00:00Z"; },
                     false, true},
        VaUpdateCase{"FinalizerAdded",
                     [](auto& va) { va.metadata.finalizers = {FinalizerFor(kDriver)}; }, false,
                     true},
        VaUpdateCase{"AnnotationChanged",
                     [](auto& va) {
                       va.metadata.annotations = {{"a", "b"}};
                     },
                     false, true},
        // The filter does not look at the driver: other drivers' objects are
        // skipped at sync time, as upstream does.
        VaUpdateCase{"OtherDriversObjectChanged",
                     [](auto& va) {
                       va.spec.attacher = "other.csi.example.com";
                       va.metadata.labels = {{"x", "y"}};
                     },
                     false, true}),
    [](const auto& info) { return info.param.name; });

TEST(VolumeAttachmentLaneFilter, OnlyAttachmentsStillToBeAttachedAreUrgent) {
  kube::VolumeAttachment pending = MakeVa("va-1");
  EXPECT_EQ(VolumeAttachmentLane(pending), kube::WorkQueue::Lane::kUrgent);

  kube::VolumeAttachment attached = pending;
  attached.status.attached = true;
  EXPECT_EQ(VolumeAttachmentLane(attached), kube::WorkQueue::Lane::kNormal);

  kube::VolumeAttachment detaching = attached;
  detaching.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_EQ(VolumeAttachmentLane(detaching), kube::WorkQueue::Lane::kNormal);

  kube::VolumeAttachment deleted_before_attach = pending;
  deleted_before_attach.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_EQ(VolumeAttachmentLane(deleted_before_attach), kube::WorkQueue::Lane::kNormal);
}

TEST(VolumeAttachmentDeleteFilter, NamesThePersistentVolume) {
  EXPECT_EQ(PersistentVolumeToSyncOnDelete(MakeVa("va-1", "pv-7")), "pv-7");
}

TEST(VolumeAttachmentDeleteFilter, InlineVolumeHasNoPersistentVolume) {
  kube::VolumeAttachment va = MakeVa("va-1");
  va.spec.source.persistent_volume_name.reset();
  va.spec.source.inline_volume_spec = std::make_shared<const kube::PersistentVolumeSpec>();
  EXPECT_FALSE(PersistentVolumeToSyncOnDelete(va).has_value());
}

struct PvCase {
  std::string name;
  std::vector<kube::InternedString> finalizers;
  bool deleted;
  bool want_enqueue;
};

class PersistentVolumeFilter : public ::testing::TestWithParam<PvCase> {};

TEST_P(PersistentVolumeFilter, EnqueuesOnlyDeletedCsiPvsWithOurFinalizer) {
  const PvCase& c = GetParam();
  kube::PersistentVolume pv = MakeCsiPv("pv-1");
  pv.metadata.finalizers = c.finalizers;
  if (c.deleted) pv.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  EXPECT_EQ(ShouldEnqueuePersistentVolume(pv, FinalizerFor(kDriver), kDriver), c.want_enqueue);
}

INSTANTIATE_TEST_SUITE_P(
    Behavior51, PersistentVolumeFilter,
    ::testing::Values(
        PvCase{"NoFinalizerNotDeleted", {}, false, false},
        PvCase{"NoFinalizerDeleted", {}, true, false},
        PvCase{"OtherFinalizerDeleted", {"kubernetes.io/pv-protection"}, true, false},
        PvCase{"OtherDriversFinalizerDeleted", {"external-attacher/other-csi"}, true, false},
        PvCase{"OurFinalizerNotDeleted", {FinalizerFor(kDriver)}, false, false},
        PvCase{"OurFinalizerDeleted", {FinalizerFor(kDriver)}, true, true},
        PvCase{"OurFinalizerAmongOthersDeleted",
               {"kubernetes.io/pv-protection", FinalizerFor(kDriver)},
               true,
               true}),
    [](const auto& info) { return info.param.name; });

// TestProcessFinalizers of upstream controller_test.go (docs/migration.md §6), with
// the attacher of pd.csi.storage.gke.io.
struct MigrationPvCase {
  std::string name;
  bool finalizer;
  bool deleted;
  bool gce_source;
  kube::StringMap annotations;
  bool want_enqueue;
};

class PersistentVolumeMigrationFilter : public ::testing::TestWithParam<MigrationPvCase> {};

TEST_P(PersistentVolumeMigrationFilter, EnqueuesRolledBackInTreePvs) {
  constexpr std::string_view kGceDriver = "pd.csi.storage.gke.io";
  const MigrationPvCase& c = GetParam();
  kube::PersistentVolume pv;
  pv.metadata.name = "pv-1";
  if (c.finalizer) pv.metadata.finalizers = {FinalizerFor(kGceDriver)};
  if (c.deleted) pv.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  if (c.gce_source)
    pv.spec.source = [&] {
      kube::GCEPersistentDiskVolumeSource v;
      v.pd_name = "pd";
      return v;
    }();
  pv.metadata.annotations = c.annotations;
  EXPECT_EQ(ShouldEnqueuePersistentVolume(pv, FinalizerFor(kGceDriver), kGceDriver),
            c.want_enqueue);
}

INSTANTIATE_TEST_SUITE_P(
    TestProcessFinalizers, PersistentVolumeMigrationFilter,
    ::testing::Values(MigrationPvCase{"EmptyPv", false, false, false, {}, false},
                      MigrationPvCase{"FinalizerOnly", true, false, false, {}, false},
                      MigrationPvCase{"FinalizerAndDeleted", true, true, false, {}, true},
                      MigrationPvCase{"InTreeWithoutAnnotation", true, false, true, {}, true},
                      MigrationPvCase{
                          "InTreeWithUnrelatedAnnotation", true, false, true, {{"a", "b"}}, true},
                      MigrationPvCase{"InTreeMigratedToAnotherDriver",
                                      true,
                                      false,
                                      true,
                                      {{"pv.kubernetes.io/migrated-to", "ebs.csi.aws.com"}},
                                      true},
                      MigrationPvCase{"InTreeMigratedToUs",
                                      true,
                                      false,
                                      true,
                                      {{"pv.kubernetes.io/migrated-to", "pd.csi.storage.gke.io"}},
                                      false},
                      MigrationPvCase{"InTreeWithoutOurFinalizer", false, false, true, {}, false},
                      MigrationPvCase{"InTreeMigratedToUsButDeleted",
                                      true,
                                      true,
                                      true,
                                      {{"pv.kubernetes.io/migrated-to", "pd.csi.storage.gke.io"}},
                                      true},
                      MigrationPvCase{"InTreeMigratedToOurNameInOtherCase",
                                      true,
                                      false,
                                      true,
                                      {{"pv.kubernetes.io/migrated-to", "PD.csi.storage.gke.io"}},
                                      true},
                      MigrationPvCase{"NotInTreeWithAnotherDriversAnnotation",
                                      true,
                                      false,
                                      false,
                                      {{"pv.kubernetes.io/migrated-to", "ebs.csi.aws.com"}},
                                      false}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace attacher
