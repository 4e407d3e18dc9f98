// docs/attacher.md §5.4: detach of a VolumeAttachment with deletionTimestamp:
// Unpublish, then the finalizer removal (a strategic merge patch naming ours
// alone, §7 row 3) before the status patch; NotFound on those writes is
// success; errors land in status.detachError without errorCode.
#include <gtest/gtest.h>

#include "tests/unit/attacher/handler_fixtures.h"

namespace attacher::handler_testing {
namespace {

// The one body removing our finalizer, whatever else the list holds.
const ApiCall kRemoveVaFinalizer = PatchVa(
    "va-1", "strategic",
    R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["external-attacher/csi-example-com"]}})");
const ApiCall kMarkDetached = PatchVaStatus(
    "va-1", R"({"status":{"attached":false,"attachmentMetadata":null,"detachError":null}})");

const base::Error kNotFound =
    base::Error::Http(404, R"(volumeattachments.storage.k8s.io "va-1" not found)");

class CsiHandlerDetach : public ::testing::TestWithParam<SyncCase> {};

TEST_P(CsiHandlerDetach, Sync) { RunSyncCase(GetParam()); }

std::vector<SyncCase> DetachCases() {
  return {
      {.name = "PvVolumeIsUnpublishedThenSoleFinalizerBecomesNullThenStatus",
       .va = DeletedVa(),
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish()}},
      {.name = "VaDeletedByRemovingItsLastFinalizerGetsNoStatusPatch",
       .va = DeletedVa(),
       .va_patch_reply = DeletedVa([](auto& va) { va.metadata.finalizers.clear(); }),
       .want_api = {kRemoveVaFinalizer},
       .want_csi = {Unpublish()}},
      {.name = "VaKeptByAnotherFinalizerStillGetsStatusPatch",
       .va = DeletedVa([](auto& va) {
         va.metadata.finalizers = {"a/first", kFinalizer};
       }),
       .va_patch_reply = DeletedVa([](auto& va) { va.metadata.finalizers = {"a/first"}; }),
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish()}},
      // Other finalizers are not in the body, so none is dropped or put back.
      {.name = "OtherFinalizersAreNotSent",
       .va = DeletedVa([](auto& va) {
         va.metadata.finalizers = {"a/first", kFinalizer, "z/last"};
       }),
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish()}},
      {.name = "InlineVolumeIsUnpublished",
       .va = DeletedVa([](auto& va) {
         va.spec.source.persistent_volume_name.reset();
         va.spec.source.inline_volume_spec = InlineSpec();
       }),
       .pvs = {},
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish([](auto& r) { r.volume_id = "inline-vol"; })}},
      {.name = "SecretsAreSent",
       .va = DeletedVa(),
       .pvs = {Pv(WithCsi([](auto& csi) {
         csi.controller_publish_secret_ref = kube::SecretReference{"creds", "ns"};
       }))},
       .secrets = {Secret("ns", "creds", {{"token", "t0k3n"}})},
       .want_api = {GetSecret("ns", "creds"), kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish([](auto& r) {
         r.secrets = {{"token", "t0k3n"}};
       })}},
      {.name = "MissingSecretFailsDetach",
       .va = DeletedVa(),
       .pvs = {Pv(WithCsi([](auto& csi) {
         csi.controller_publish_secret_ref = kube::SecretReference{"creds", "ns"};
       }))},
       .want_api = {GetSecret("ns", "creds"),
                    PatchVaStatus("va-1", DetachErrorBody(R"(failed to load secret "ns/creds": )"
                                                          R"(secrets "creds" not found)"))},
       .want_error =
           R"(failed to detach: failed to load secret "ns/creds": secrets "creds" not found)"},
      {.name = "NodeIdFallsBackToAnnotationWithoutCsiNode",
       .va = DeletedVa([](auto& va) { va.metadata.annotations[kNodeIdAnnotation] = "saved-id"; }),
       .csi_nodes = {},
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish([](auto& r) { r.node_id = "saved-id"; })}},
      {.name = "NodeIdFallsBackToAnnotationWhenCsiNodeLacksDriver",
       .va = DeletedVa([](auto& va) { va.metadata.annotations[kNodeIdAnnotation] = "saved-id"; }),
       .csi_nodes = {CsiNode([](auto& node) { node.spec.drivers.clear(); })},
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish([](auto& r) { r.node_id = "saved-id"; })}},
      {.name = "CsiNodeWinsOverAnnotation",
       .va = DeletedVa([](auto& va) { va.metadata.annotations[kNodeIdAnnotation] = "saved-id"; }),
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish()}},
      {.name = "NoCsiNodeAndNoAnnotationFails",
       .va = DeletedVa([](auto& va) { va.metadata.annotations = kube::StringMap(); }),
       .csi_nodes = {},
       .want_api = {PatchVaStatus("va-1",
                                  DetachErrorBody(R"(csinode.storage.k8s.io "node-1" not found)"))},
       .want_error = R"(failed to detach: csinode.storage.k8s.io "node-1" not found)"},
      {.name = "CsiNodeWithoutDriverAndNoAnnotationFails",
       .va = DeletedVa([](auto& va) { va.metadata.annotations = kube::StringMap(); }),
       .csi_nodes = {CsiNode([](auto& node) { node.spec.drivers.clear(); })},
       .want_api = {PatchVaStatus(
           "va-1", DetachErrorBody("CSINode node-1 does not contain driver csi.example.com"))},
       .want_error = "failed to detach: CSINode node-1 does not contain driver csi.example.com"},
      {.name = "MissingPvBlocksDetach",
       .va = DeletedVa(),
       .pvs = {},
       .want_api = {PatchVaStatus("va-1", DetachErrorBody(R"(persistentvolume "pv-1" not found)"))},
       .want_error = R"(failed to detach: persistentvolume "pv-1" not found)"},
      {.name = "InTreeEbsIsTranslatedAndUnpublishedAsMigrated",
       .va = DeletedVa(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.source = [&] {
           kube::AWSElasticBlockStoreVolumeSource v;
           v.volume_id = "aws://us-east-1a/vol-0123";
           return v;
         }();
       })},
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish([](auto& r) {
         r.volume_id = "vol-0123";
         r.migrated = true;
       })}},
      {.name = "InTreeGcePdIsUnpublishedWithItsUnrepairedHandleAsMigrated",
       .va = DeletedVa(),
       .pvs = {Pv([](auto& pv) {
         pv.metadata.labels = {{"failure-domain.beta.kubernetes.io/zone", "testZone"}};
         pv.spec.source = [&] {
           kube::GCEPersistentDiskVolumeSource v;
           v.pd_name = "testpd";
           return v;
         }();
       })},
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish([](auto& r) {
         r.volume_id = "projects/UNSPECIFIED/zones/testZone/disks/testpd";
         r.migrated = true;
       })}},
      {.name = "InTreePvThatCannotBeTranslatedFails",
       .va = DeletedVa(),
       .pvs = {Pv([](auto& pv) {
         pv.spec.source = [&] {
           kube::AWSElasticBlockStoreVolumeSource v;
           v.volume_id = "aws://zone/0123";
           return v;
         }();
       })},
       .want_api = {PatchVaStatus(
           "va-1", DetachErrorBody("failed to translate in tree pv to CSI: failed to translate "
                                   "Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
                                   "(aws://zone/0123)"))},
       .want_error = "failed to detach: failed to translate in tree pv to CSI: failed to "
                     "translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
                     "(aws://zone/0123)"},
      {.name = "CsiErrorIsSavedWithoutErrorCode",
       .va = DeletedVa(),
       .publisher = {.unpublish_error =
                         base::Error::Grpc(13, "rpc error: code = Internal desc = backend down")},
       .want_api = {PatchVaStatus(
           "va-1", DetachErrorBody("rpc error: code = Internal desc = backend down"))},
       .want_csi = {Unpublish()},
       .want_error = "failed to detach: rpc error: code = Internal desc = backend down"},
      {.name = "WithoutOurFinalizerDetachIsSkipped",
       .va = DeletedVa([](auto& va) { va.metadata.finalizers = {"other/finalizer"}; })},
      {.name = "ForceSyncUnpublishesEvenWithoutFinalizer",
       .va = DeletedVa([](auto& va) {
         va.metadata.finalizers.clear();
         va.metadata.has_finalizers_field = false;
       }),
       .force_sync = true,
       .want_api = {kMarkDetached},
       .want_csi = {Unpublish()}},
      {.name = "ForceSyncOfDetachedVaWithoutFinalizerWritesNothing",
       .va = DeletedVa([](auto& va) {
         va.metadata.finalizers.clear();
         va.status = {};
       }),
       .force_sync = true,
       .want_csi = {Unpublish()}},
      {.name = "PreviousDetachErrorIsCleared",
       .va = DeletedVa([](auto& va) {
         va.status.detach_error = kube::VolumeError{"2023-11-14T22:00:00Z", "old", std::nullopt};
       }),
       .want_api = {kRemoveVaFinalizer,
                    PatchVaStatus("va-1", R"({"status":{"attached":false,)"
                                          R"("attachmentMetadata":null,"detachError":null}})")},
       .want_csi = {Unpublish()}},
      {.name = "NotFoundOnFinalizerRemovalIsSuccess",
       .va = DeletedVa(),
       .api_failures = {{"patch", "volumeattachments", "", kNotFound}},
       .want_api = {kRemoveVaFinalizer},
       .want_csi = {Unpublish()}},
      {.name = "NotFoundOnStatusPatchIsSuccess",
       .va = DeletedVa(),
       .api_failures = {{"patch", "volumeattachments", "status", kNotFound}},
       .want_api = {kRemoveVaFinalizer, kMarkDetached},
       .want_csi = {Unpublish()}},
      {.name = "FailedFinalizerRemovalIsSavedAsDetachError",
       .va = DeletedVa(),
       .api_failures = {{"patch", "volumeattachments", "", kBoom}},
       .want_api = {kRemoveVaFinalizer,
                    PatchVaStatus("va-1", DetachErrorBody("could not mark as detached: boom"))},
       .want_csi = {Unpublish()},
       .want_error = "failed to detach: could not mark as detached: boom"},
      {.name = "FailedStatusPatchFailsDetach",
       .va = DeletedVa(),
       .api_failures = {{"patch", "volumeattachments", "status", kBoom}},
       .want_api = {kRemoveVaFinalizer, kMarkDetached,
                    PatchVaStatus("va-1", DetachErrorBody("could not mark as detached: boom"))},
       .want_csi = {Unpublish()},
       .want_error = "failed to detach: could not mark as detached: boom"},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, CsiHandlerDetach, ::testing::ValuesIn(DetachCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace attacher::handler_testing
