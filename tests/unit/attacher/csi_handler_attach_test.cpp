// docs/attacher.md §5.3: attach of a VolumeAttachment without deletionTimestamp,
// step by step, with the exact API writes (§5.3 steps 2 and 6, §7 row 3:
// strategic merge patches whose bodies do not depend on the cached copy) and
// the exact Publish request.
#include <gtest/gtest.h>

#include "csi/errors.h"
#include "tests/unit/attacher/handler_fixtures.h"

namespace attacher::handler_testing {
namespace {

// The strategic merge patch saving finalizer and node ID on a VA that has
// neither.
const ApiCall kSaveVa =
    PatchVa("va-1", "strategic",
            R"({"metadata":{"annotations":{"csi.alpha.kubernetes.io/node-id":"node-id-1"},)"
            R"("finalizers":["external-attacher/csi-example-com"]}})");
const std::string kAttached = R"({"status":{"attachError":null,"attached":true}})";
const ApiCall kMarkAttached = PatchVaStatus("va-1", kAttached);

// The one body adding our finalizer to a PV, whatever list the PV has.
const ApiCall kAddPvFinalizer =
    PatchPv("pv-1", R"({"metadata":{"finalizers":["external-attacher/csi-example-com"]}})");
const kube::PersistentVolume kPvWithoutFinalizers = Pv([](auto& pv) {
  pv.metadata.finalizers.clear();
  pv.metadata.has_finalizers_field = false;
});

ApiCall SaveAttachError(const std::string& message, std::optional<int> code = std::nullopt) {
  return PatchVaStatus("va-1", AttachErrorBody(message, code));
}

// What the API server answers a finalizer added to an object being deleted.
const base::Error kRefused = base::Error::Http(
    422, R"(PersistentVolume "pv-1" is invalid: metadata.finalizers: Forbidden: no new )"
         "finalizers can be added if the object is being deleted");
const base::Error kInvalidArgument =
    base::Error::Grpc(3, "rpc error: code = InvalidArgument desc = bad volume");
const base::Error kDeadline =
    base::Error::Grpc(4, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");

class CsiHandlerAttach : public ::testing::TestWithParam<SyncCase> {};

TEST_P(CsiHandlerAttach, Sync) { RunSyncCase(GetParam()); }

std::vector<SyncCase> AttachCases() {
  return {
      {.name = "PvVolumeIsPublishedAndMarkedAttachedWithPublishContext",
       .va = Va(),
       .publisher = {.publish_context = {{"devicePath", "/dev/sdb"}}},
       .want_api = {kSaveVa,
                    PatchVaStatus("va-1", R"({"status":{"attachError":null,"attached":true,)"
                                          R"("attachmentMetadata":{"devicePath":"/dev/sdb"}}})")},
       .want_csi = {Publish()}},
      {.name = "InlineVolumeIsPublishedWithoutPvWrites",
       .va = Va([](auto& va) {
         va.spec.source.persistent_volume_name.reset();
         va.spec.source.inline_volume_spec = InlineSpec();
       }),
       .pvs = {},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.volume_id = "inline-vol";
         r.capability.access_mode = AccessMode::kMultiNodeMultiWriter;
       })}},
      {.name = "ReadOnlyIsSentWithPublishReadonly",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) { csi.read_only = true; }))},
       .options = {.supports_publish_readonly = true},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) { r.readonly = true; })}},
      {.name = "ReadOnlyIsFalseWithoutPublishReadonly",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) { csi.read_only = true; }))},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish()}},
      {.name = "VolumeAttributesBecomeVolumeContext",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) {
         csi.volume_attributes = {{"pool", "gold"}};
       }))},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.volume_context = {{"pool", "gold"}};
       })}},
      {.name = "SecretDataIsSentAsSecrets",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) {
         csi.controller_publish_secret_ref = kube::SecretReference{"creds", "ns"};
       }))},
       .secrets = {Secret("ns", "creds", {{"password", "hunter2"}})},
       .want_api = {GetSecret("ns", "creds"), kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.secrets = {{"password", "hunter2"}};
       })}},
      {.name = "SecretWithoutDataSendsNoSecrets",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) {
         csi.controller_publish_secret_ref = kube::SecretReference{"creds", "ns"};
       }))},
       .secrets = {Secret("ns", "creds", {})},
       .want_api = {GetSecret("ns", "creds"), kSaveVa, kMarkAttached},
       .want_csi = {Publish()}},
      {.name = "MissingSecretFailsBeforeAnyVaWrite",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) {
         csi.controller_publish_secret_ref = kube::SecretReference{"creds", "ns"};
       }))},
       .want_api = {GetSecret("ns", "creds"),
                    SaveAttachError(
                        R"(failed to load secret "ns/creds": secrets "creds" not found)")},
       .want_error =
           R"(failed to attach: failed to load secret "ns/creds": secrets "creds" not found)"},
      {.name = "PvFinalizerIsAddedToAbsentList",
       .va = Va(),
       .pvs = {kPvWithoutFinalizers},
       .want_api = {kAddPvFinalizer, kSaveVa, kMarkAttached},
       .want_csi = {Publish()}},
      // The body names ours alone: the API server adds it to the list it
      // holds, so neither the cached list nor a change since matters.
      {.name = "PvFinalizerIsAddedNextToOtherFinalizersWithTheSameBody",
       .va = Va(),
       .pvs = {Pv([](auto& pv) { pv.metadata.finalizers = {"kubernetes.io/pv-protection"}; })},
       .want_api = {kAddPvFinalizer, kSaveVa, kMarkAttached},
       .want_csi = {Publish()}},
      {.name = "FailedPvFinalizerPatchFailsAttach",
       .va = Va(),
       .pvs = {kPvWithoutFinalizers},
       .api_failures = {{"patch", "persistentvolumes", "", kBoom}},
       .want_api = {kAddPvFinalizer,
                    SaveAttachError("could not add PersistentVolume finalizer: boom")},
       .want_error = "failed to attach: could not add PersistentVolume finalizer: boom"},
      // No stale copy makes the patch fail, so a refusal is a real failure:
      // saved and retried with backoff, with no read and no second send.
      {.name = "RefusedPvFinalizerPatchFailsAttachWithoutARetry",
       .va = Va(),
       .pvs = {kPvWithoutFinalizers},
       .api_failures = {{"patch", "persistentvolumes", "", kRefused}},
       .want_api = {kAddPvFinalizer, SaveAttachError("could not add PersistentVolume finalizer: " +
                                                     kRefused.message)},
       .want_error =
           "failed to attach: could not add PersistentVolume finalizer: " + kRefused.message},
      {.name = "PvMarkedForDeletionIsNotAttached",
       .va = Va(),
       .pvs = {Pv([](auto& pv) { pv.metadata.deletion_timestamp = std::string(kDeleted); })},
       .want_api = {SaveAttachError(R"(PersistentVolume "pv-1" is marked for deletion)")},
       .want_error = R"(failed to attach: PersistentVolume "pv-1" is marked for deletion)"},
      {.name = "UnknownPvFails",
       .va = Va(),
       .pvs = {},
       .want_api = {SaveAttachError(R"(persistentvolume "pv-1" not found)")},
       .want_error = R"(failed to attach: persistentvolume "pv-1" not found)"},
      {.name = "MissingCsiNodeFailsWithoutAnnotationFallback",
       .va = Va([](auto& va) { va.metadata.annotations[kNodeIdAnnotation] = "node-id-1"; }),
       .csi_nodes = {},
       .want_api = {SaveAttachError(R"(csinode.storage.k8s.io "node-1" not found)")},
       .want_error = R"(failed to attach: csinode.storage.k8s.io "node-1" not found)"},
      {.name = "CsiNodeWithoutDriverFails",
       .va = Va(),
       .csi_nodes = {CsiNode([](auto& node) { node.spec.drivers[0].name = "other.example.com"; })},
       .want_api = {SaveAttachError("CSINode node-1 does not contain driver csi.example.com")},
       .want_error = "failed to attach: CSINode node-1 does not contain driver csi.example.com"},
      {.name = "FailedVaPatchFailsBeforePublish",
       .va = Va(),
       .api_failures = {{"patch", "volumeattachments", "", kBoom}},
       .want_api = {kSaveVa, SaveAttachError("could not save VolumeAttachment: boom")},
       .want_error = "failed to attach: could not save VolumeAttachment: boom"},
      // Other writers' finalizers and annotations are neither tested nor
      // sent: the API server merges ours into what it holds.
      {.name = "VaPatchIsTheSameNextToOtherFinalizersAndAnnotations",
       .va = Va([](auto& va) {
         va.metadata.finalizers = {"other/finalizer"};
         va.metadata.has_finalizers_field = true;
         va.metadata.annotations["a/b"] = "c";
       }),
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish()}},
      {.name = "VaWithNodeIdButWithoutFinalizerGetsTheFinalizerAlone",
       .va = Va([](auto& va) { va.metadata.annotations[kNodeIdAnnotation] = "node-id-1"; }),
       .want_api = {PatchVa("va-1", "strategic",
                            R"({"metadata":{"finalizers":["external-attacher/csi-example-com"]}})"),
                    kMarkAttached},
       .want_csi = {Publish()}},
      // The node ID this sync publishes with replaces an earlier one, unguarded
      // (docs/attacher.md §7 row 3).
      {.name = "VaWithFinalizerAndAnotherNodeIdGetsTheNodeIdOfThisPublish",
       .va = Va([](auto& va) {
         va.metadata.finalizers = {kFinalizer};
         va.metadata.has_finalizers_field = true;
         va.metadata.annotations[kNodeIdAnnotation] = "old-node-id";
       }),
       .want_api = {PatchVa("va-1", "strategic",
                            R"({"metadata":{"annotations":)"
                            R"({"csi.alpha.kubernetes.io/node-id":"node-id-1"}}})"),
                    kMarkAttached},
       .want_csi = {Publish()}},
      {.name = "VaWithFinalizerAndNodeIdIsNotPatched",
       .va = AttachedVa([](auto& va) { va.status = {}; }),
       .want_api = {kMarkAttached},
       .want_csi = {Publish()}},
      {.name = "FinalCsiErrorIsSavedWithErrorCode",
       .va = Va(),
       .publisher = {.publish_error = kInvalidArgument},
       .want_api = {kSaveVa, SaveAttachError(kInvalidArgument.message, 3)},
       .want_csi = {Publish()},
       .want_error = "failed to attach: " + kInvalidArgument.message},
      {.name = "DeadlineExceededIsSavedWithErrorCode",
       .va = Va(),
       .publisher = {.publish_error = kDeadline},
       .want_api = {kSaveVa, SaveAttachError(kDeadline.message, 4)},
       .want_csi = {Publish()},
       .want_error = "failed to attach: " + kDeadline.message},
      {.name = "ErrorCodeIsNotSavedWhenGateIsOff",
       .va = Va(),
       .options = {.error_code_enabled = false},
       .publisher = {.publish_error = kInvalidArgument},
       .want_api = {kSaveVa, SaveAttachError(kInvalidArgument.message)},
       .want_csi = {Publish()},
       .want_error = "failed to attach: " + kInvalidArgument.message},
      {.name = "ErrorCodeIsNotSavedForNonGrpcError",
       .va = Va(),
       .publisher = {.publish_error = base::Error("connection closed")},
       .want_api = {kSaveVa, SaveAttachError("connection closed")},
       .want_csi = {Publish()},
       .want_error = "failed to attach: connection closed"},
      {.name = "ErrorCodeIsClearedWhenNextErrorHasNone",
       .va = Va([](auto& va) {
         va.status.attach_error = kube::VolumeError{"2023-11-14T22:00:00Z", "old", 3};
       }),
       .csi_nodes = {},
       .want_api = {PatchVaStatus("va-1",
                                  R"({"status":{"attachError":{"errorCode":null,)"
                                  R"("message":"csinode.storage.k8s.io \"node-1\" not found",)"
                                  R"("time":"2023-11-14T22:13:20Z"}}})")},
       .want_error = R"(failed to attach: csinode.storage.k8s.io "node-1" not found)"},
      {.name = "FailureToSaveErrorStillReturnsTheAttachError",
       .va = Va(),
       .api_failures = {{"patch", "volumeattachments", "status", kBoom}},
       .publisher = {.publish_error = kInvalidArgument},
       .want_api = {kSaveVa, SaveAttachError(kInvalidArgument.message, 3)},
       .want_csi = {Publish()},
       .want_error = "failed to attach: " + kInvalidArgument.message},
      {.name = "FailureToMarkAttachedIsReturnedNotSaved",
       .va = Va(),
       .api_failures = {{"patch", "volumeattachments", "status", kBoom}},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish()},
       .want_error = "failed to mark as attached: boom"},
      {.name = "SuccessClearsPreviousAttachError",
       .va = Va([](auto& va) {
         va.status.attach_error = kube::VolumeError{"t", "old", 3};
       }),
       .want_api = {kSaveVa,
                    PatchVaStatus("va-1", R"({"status":{"attachError":null,"attached":true}})")},
       .want_csi = {Publish()}},
      {.name = "AttachedVaIsSkipped", .va = AttachedVa()},
      // #17: left by a sync that worked from stale copies.
      {.name = "AttachedVaWithLeftoverAttachErrorIsClearedWithoutDriverCall",
       .va = AttachedVa([](auto& va) {
         va.status.attach_error = kube::VolumeError{"t", "stale", std::nullopt};
       }),
       .want_api = {PatchVaStatus("va-1", R"({"status":{"attachError":null}})")}},
      {.name = "FailedClearOfLeftoverAttachErrorIsReturned",
       .va = AttachedVa([](auto& va) {
         va.status.attach_error = kube::VolumeError{"t", "stale", std::nullopt};
       }),
       .api_failures = {{"patch", "volumeattachments", "status", kBoom}},
       .want_api = {PatchVaStatus("va-1", R"({"status":{"attachError":null}})")},
       .want_error = "failed to clear attachError: boom"},
      {.name = "ForceSyncRepublishesAttachedVa",
       .va = AttachedVa(),
       .publisher = {.publish_context = {{"devicePath", "/dev/sdc"}}},
       .force_sync = true,
       .want_api = {PatchVaStatus("va-1", R"({"status":{"attachError":null,"attached":true,)"
                                          R"("attachmentMetadata":{"devicePath":"/dev/sdc"}}})")},
       .want_csi = {Publish()}},
      {.name = "BlockVolumeGetsBlockCapability",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.volume_mode = "Block";
         pv.spec.mount_options = {"ro"};
       })},
       .options = {.default_fstype = "ext4"},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) { r.capability.block = true; })}},
      {.name = "MountVolumeGetsDefaultFsTypeAndMountOptions",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.mount_options = {"noatime", "discard"};
       })},
       .options = {.default_fstype = "ext4"},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.capability.fs_type = "ext4";
         r.capability.mount_flags = {"noatime", "discard"};
       })}},
      {.name = "PvFsTypeWinsOverDefault",
       .va = Va(),
       .pvs = {Pv(WithCsi([](auto& csi) { csi.fs_type = "xfs"; }))},
       .options = {.default_fstype = "ext4"},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) { r.capability.fs_type = "xfs"; })}},
      {.name = "RwoWithSingleNodeMultiWriterCapability",
       .va = Va(),
       .options = {.supports_single_node_multi_writer = true},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish(
           [](auto& r) { r.capability.access_mode = AccessMode::kSingleNodeMultiWriter; })}},
      {.name = "RwopMixedWithOtherModesFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.access_modes = {"ReadWriteOncePod", "ReadWriteOnce"};
       })},
       .want_api = {SaveAttachError("Kubernetes does not support use of ReadWriteOncePod with "
                                    "other access modes on the same PersistentVolume")},
       .want_error = "failed to attach: Kubernetes does not support use of ReadWriteOncePod with "
                     "other access modes on the same PersistentVolume"},
      {.name = "RoxWithRwoFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.access_modes = {"ReadOnlyMany", "ReadWriteOnce"};
       })},
       .want_api = {SaveAttachError(
           "CSI does not support ReadOnlyMany and ReadWriteOnce on the same PersistentVolume")},
       .want_error = "failed to attach: CSI does not support ReadOnlyMany and ReadWriteOnce on "
                     "the same PersistentVolume"},
      {.name = "NoAccessModeFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) { pv.spec.access_modes.clear(); })},
       .want_api = {SaveAttachError("unsupported AccessMode combination: []")},
       .want_error = "failed to attach: unsupported AccessMode combination: []"},
      {.name = "InTreeGcePdIsTranslatedAndPublishedAsMigrated",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.metadata.labels = {{"failure-domain.beta.kubernetes.io/zone", "testZone"}};
         pv.spec.access_modes = {"ReadOnlyMany", "ReadWriteOnce"};  // GCE rewrites to RWO
         pv.spec.source = [&] {
           kube::GCEPersistentDiskVolumeSource v;
           v.pd_name = "testpd";
           return v;
         }();
       })},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.volume_id = "projects/UNSPECIFIED/zones/testZone/disks/testpd";
         r.volume_context = {{"partition", ""}};
         r.migrated = true;
       })}},
      {.name = "InTreePvThatCannotBeTranslatedFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.source = [&] {
           kube::AzureDiskVolumeSource v;
           v.disk_uri = "uri";
           v.kind = "Shared";
           return v;
         }();
       })},
       .want_api = {SaveAttachError(
           "failed to translate in tree pv to CSI: kind(Shared) is not supported in csi "
           "migration")},
       .want_error = "failed to attach: failed to translate in tree pv to CSI: kind(Shared) is "
                     "not supported in csi migration"},
      {.name = "InTreeGcePdRegionalLabelsFsTypeAndPartitionAreTranslated",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.metadata.labels = {{"topology.kubernetes.io/zone", "us-central1-a__us-central1-c"}};
         pv.spec.access_modes = {"ReadWriteMany"};  // GCE rewrites to RWO
         pv.spec.source = [&] {
           kube::GCEPersistentDiskVolumeSource v;
           v.pd_name = "testpd";
           v.fs_type = "ext4";
           v.partition = 2;
           return v;
         }();
       })},
       .want_api = {kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.volume_id = "projects/UNSPECIFIED/regions/us-central1/disks/testpd";
         r.volume_context = {{"partition", "2"}};
         r.capability.fs_type = "ext4";
         r.migrated = true;
       })}},
      {.name = "InTreePortworxSendsItsAnnotatedSecret",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.metadata.annotations = {{"openstorage.io/auth-secret-name", "px-secret"},
                                    {"openstorage.io/auth-secret-namespace", "px-ns"}};
         pv.spec.source = [&] {
           kube::PortworxVolumeSource v;
           v.volume_id = "px-vol";
           return v;
         }();
       })},
       .secrets = {Secret("px-ns", "px-secret", {{"token", "t"}})},
       .want_api = {GetSecret("px-ns", "px-secret"), kSaveVa, kMarkAttached},
       .want_csi = {Publish([](auto& r) {
         r.volume_id = "px-vol";
         r.secrets = {{"token", "t"}};
         r.migrated = true;
       })}},
      {.name = "InTreeEbsWithBadVolumeIdFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.source = [&] {
           kube::AWSElasticBlockStoreVolumeSource v;
           v.volume_id = "aws://us-east-1a/0123";
           return v;
         }();
       })},
       .want_api = {SaveAttachError(
           "failed to translate in tree pv to CSI: failed to translate Kubernetes ID to EBS "
           "Volume ID Invalid format for AWS volume (aws://us-east-1a/0123)")},
       .want_error = "failed to attach: failed to translate in tree pv to CSI: failed to "
                     "translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
                     "(aws://us-east-1a/0123)"},
      {.name = "InTreeAzureFileWithoutSecretNamespaceFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.source = [&] {
           kube::AzureFilePersistentVolumeSource v;
           v.secret_name = "secret";
           v.share_name = "share";
           return v;
         }();
       })},
       .want_api = {SaveAttachError(
           "failed to translate in tree pv to CSI: could not find a secret namespace in "
           "PersistentVolumeSource or ClaimRef")},
       .want_error = "failed to attach: failed to translate in tree pv to CSI: could not find a "
                     "secret namespace in PersistentVolumeSource or ClaimRef"},
      {.name = "InTreeGcePdWithRegionalZoneOfWrongShapeFailsAfterTheFinalizerIsAdded",
       .va = Va(),
       .pvs = {Pv([](auto& pv) {
         pv.metadata.finalizers.clear();
         pv.metadata.has_finalizers_field = false;
         pv.metadata.labels = {{"topology.kubernetes.io/zone", "us-central1__us-central1-c"}};
         pv.spec.source = [&] {
           kube::GCEPersistentDiskVolumeSource v;
           v.pd_name = "testpd";
           return v;
         }();
       })},
       .want_api = {kAddPvFinalizer,
                    SaveAttachError("failed to translate in tree pv to CSI: failed to get region "
                                    "from zones: zone in unexpected format, expected: "
                                    "{locale}-{region}-{zone}, got: us-central1")},
       .want_error = "failed to attach: failed to translate in tree pv to CSI: failed to get "
                     "region from zones: zone in unexpected format, expected: "
                     "{locale}-{region}-{zone}, got: us-central1"},
      {.name = "InTreeSourceInInlineSpecIsNotTranslated",
       .va = Va([](auto& va) {
         va.spec.source.persistent_volume_name.reset();
         va.spec.source.inline_volume_spec = InlineSpec([](auto& spec) {
           spec.source = [&] {
             kube::GCEPersistentDiskVolumeSource v;
             v.pd_name = "pd";
             return v;
           }();
         });
       }),
       .pvs = {},
       .want_api = {SaveAttachError("inline volume spec contains nil CSI source")},
       .want_error = "failed to attach: inline volume spec contains nil CSI source"},
      {.name = "InlineSpecWithoutAnySourceFails",
       .va = Va([](auto& va) {
         va.spec.source.persistent_volume_name.reset();
         va.spec.source.inline_volume_spec =
             InlineSpec([](auto& spec) { spec.source = std::monostate(); });
       }),
       .pvs = {},
       .want_api = {SaveAttachError("inline volume spec contains nil CSI source")},
       .want_error = "failed to attach: inline volume spec contains nil CSI source"},
      {.name = "PvWithNonCsiSourceFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) { pv.spec.source = kube::OtherVolumeSource{"nfs"}; })},
       .want_api = {SaveAttachError(R"(volume spec has a non-CSI volume source "nfs")")},
       .want_error = R"(failed to attach: volume spec has a non-CSI volume source "nfs")"},
      {.name = "PvWithoutSourceFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) { pv.spec.source = std::monostate(); })},
       .want_api = {SaveAttachError("volume spec has no volume source")},
       .want_error = "failed to attach: volume spec has no volume source"},
      {.name = "PvWithTwoSourcesFails",
       .va = Va(),
       .pvs = {Pv([](auto& pv) { pv.spec.extra_sources = 1; })},
       .want_api = {SaveAttachError("volume spec has more than one volume source")},
       .want_error = "failed to attach: volume spec has more than one volume source"},
      {.name = "VaWithBothSourcesFails",
       .va = Va([](auto& va) { va.spec.source.inline_volume_spec = InlineSpec(); }),
       .want_api = {SaveAttachError(
           "both InlineCSIVolumeSource and PersistentVolumeName specified in VA source")},
       .want_error = "failed to attach: both InlineCSIVolumeSource and PersistentVolumeName "
                     "specified in VA source"},
      {.name = "VaWithNeitherSourceFails",
       .va = Va([](auto& va) { va.spec.source.persistent_volume_name.reset(); }),
       .want_api = {SaveAttachError(
           "neither InlineCSIVolumeSource nor PersistentVolumeName specified in VA source")},
       .want_error = "failed to attach: neither InlineCSIVolumeSource nor PersistentVolumeName "
                     "specified in VA source"},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, CsiHandlerAttach, ::testing::ValuesIn(AttachCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace attacher::handler_testing
