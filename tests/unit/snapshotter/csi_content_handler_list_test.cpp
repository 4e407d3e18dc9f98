// docs/snapshots.md §3.6 and §3.5 (§6 category 4): the readiness of a
// pre-provisioned content comes from ListSnapshots when the driver
// advertises it, from nothing otherwise (ready, now, size 0); an empty list
// is an error; the ListSnapshots Secret comes from the class templates.
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "tests/unit/snapshotter/handler_fixtures.h"

namespace snapshotter::testing {
namespace {

std::string CheckFailed(const std::string& error) {
  return "Failed to check and update snapshot content: " + error;
}

void WithListSecretClass(kube::VolumeSnapshotContent& c) {
  c.spec.volume_snapshot_class_name = "gold";
}

kube::VolumeSnapshotClass ListSecretClass(std::string name_template, std::string ns_template) {
  return Class([&](auto& c) {
    c.parameters = {{"csi.storage.k8s.io/snapshotter-list-secret-name", name_template},
                    {"csi.storage.k8s.io/snapshotter-list-secret-namespace", ns_template}};
  });
}

class CsiContentHandlerList : public ::testing::TestWithParam<SyncCase> {};

TEST_P(CsiContentHandlerList, Sync) { RunSyncCase(GetParam()); }

std::vector<SyncCase> ListCases() {
  const std::string not_found =
      R"(failed to list snapshot for content content-1: "can not find snapshot for snapshotID )"
      R"(snap-handle-1")";
  return {
      {.name = "ReadySnapshotIsRecordedFromListSnapshots",
       .content = ImportedContent(),
       .driver = {.list = {std::optional(Snapshot())}},
       .want_api = {WriteStatus("10", ReadyStatusBody())},
       .want_csi = {ListCall(std::string(kHandle))},
       .want_outcome = SyncOutcome::kDone},
      {.name = "UnreadySnapshotIsPolledForReadiness",
       .content = ImportedContent(),
       .driver = {.list = {std::optional(Snapshot([](auto& s) { s.ready_to_use = false; }))}},
       .want_api = {WriteStatus("10", {{"snapshotHandle", kHandle},
                                       {"creationTime", kCreated},
                                       {"restoreSize", kGiB},
                                       {"readyToUse", false}})},
       .want_csi = {ListCall(std::string(kHandle))},
       .want_outcome = SyncOutcome::kPollReadiness},
      {.name = "UnchangedUnreadySnapshotWritesNothing",
       .content = ImportedContent([](auto& c) {
         c.status = ReadyStatus();
         c.status->ready_to_use = false;
       }),
       .driver = {.list = {std::optional(Snapshot([](auto& s) { s.ready_to_use = false; }))}},
       .want_csi = {ListCall(std::string(kHandle))},
       .want_outcome = SyncOutcome::kPollReadiness},
      {.name = "WithoutListSnapshotsTheHandleIsReadyNow",
       .content = ImportedContent(),
       .driver = {.list = {std::optional<DriverSnapshot>()}},
       .want_api = {WriteStatus(
           "10", {{"snapshotHandle", kHandle}, {"creationTime", kNowNanos}, {"readyToUse", true}})},
       .want_csi = {ListCall(std::string(kHandle))},
       .want_outcome = SyncOutcome::kDone},
      {.name = "EmptyListIsAnError",
       .content = ImportedContent(),
       .driver = {.list = {base::Error("can not find snapshot for snapshotID snap-handle-1")}},
       .want_api = {WriteStatus("10", ErrorStatusBody(CheckFailed(not_found)))},
       .want_csi = {ListCall(std::string(kHandle))},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: " + CheckFailed(not_found)},
       .want_error = not_found},
      {.name = "ListSnapshotsErrorIsSavedAndReported",
       .content = ImportedContent(),
       .driver = {.list = {base::Error::Grpc(14, "rpc error: code = Unavailable desc = down")}},
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(CheckFailed(
                     R"(failed to list snapshot for content content-1: "rpc error: code = )"
                     R"(Unavailable desc = down")")))},
       .want_csi = {ListCall(std::string(kHandle))},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: " +
                       CheckFailed(R"(failed to list snapshot for content content-1: "rpc )"
                                   R"(error: code = Unavailable desc = down")")},
       .want_error = R"(failed to list snapshot for content content-1: "rpc error: code = )"
                     R"(Unavailable desc = down")"},
      {.name = "GroupSnapshotIdBecomesVolumeGroupSnapshotHandle",
       .content = ImportedContent(),
       .driver = {.list = {std::optional(
                      Snapshot([](auto& s) { s.group_snapshot_id = "group-1"; }))}},
       .want_api = {WriteStatus("10", {{"snapshotHandle", kHandle},
                                       {"creationTime", kCreated},
                                       {"restoreSize", kGiB},
                                       {"readyToUse", true},
                                       {"volumeGroupSnapshotHandle", "group-1"}})},
       .want_csi = {ListCall(std::string(kHandle))}},
      {.name = "ListSecretFromClassTemplates",
       .content = ImportedContent(WithListSecretClass),
       .classes = {ListSecretClass("${volumesnapshotcontent.name}-creds", "kube-system")},
       .secrets = {Secret("kube-system", "content-1-creds", {{"token", "s3cr3t"}})},
       .driver = {.list = {std::optional(Snapshot())}},
       .want_api = {GetSecret("kube-system", "content-1-creds"),
                    WriteStatus("10", ReadyStatusBody())},
       .want_csi = {ListCall(std::string(kHandle), {{"token", "s3cr3t"}})}},
      {.name = "MissingListSecretFails",
       .content = ImportedContent(WithListSecretClass),
       .classes = {ListSecretClass("creds", "kube-system")},
       .want_api = {GetSecret("kube-system", "creds"),
                    WriteStatus("10", ErrorStatusBody(CheckFailed(
                                          "failed to get credentials for snapshot content "
                                          "content-1: error getting secret creds in namespace "
                                          "kube-system: secrets \"creds\" not found")))},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: " +
                       CheckFailed("failed to get credentials for snapshot content content-1: "
                                   "error getting secret creds in namespace kube-system: "
                                   "secrets \"creds\" not found")},
       .want_error = "failed to get credentials for snapshot content content-1: error getting "
                     "secret creds in namespace kube-system: secrets \"creds\" not found"},
      {.name = "HalfSetListSecretParametersFail",
       .content = ImportedContent(WithListSecretClass),
       .classes = {Class([](auto& c) {
         c.parameters = {{"csi.storage.k8s.io/snapshotter-list-secret-name", "creds"}};
       })},
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(CheckFailed(
                     "failed to get secret reference for snapshot content content-1: failed to "
                     "get name and namespace template from params: either name and namespace "
                     "for SnapshotterList secrets specified, Both must be specified")))},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: " +
                       CheckFailed("failed to get secret reference for snapshot content "
                                   "content-1: failed to get name and namespace template from "
                                   "params: either name and namespace for SnapshotterList "
                                   "secrets specified, Both must be specified")},
       .want_error = "failed to get secret reference for snapshot content content-1: failed to "
                     "get name and namespace template from params: either name and namespace "
                     "for SnapshotterList secrets specified, Both must be specified"},
      {.name = "ClassMissingFromCacheFails",
       .content = ImportedContent(WithListSecretClass),
       .classes = {},
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(CheckFailed(
                     R"(failed to get snapshot class gold for snapshot content content-1: )"
                     R"(volumesnapshotclass.snapshot.storage.k8s.io "gold" not found)")))},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: " +
                       CheckFailed(R"(failed to get snapshot class gold for snapshot content )"
                                   R"(content-1: volumesnapshotclass.snapshot.storage.k8s.io )"
                                   R"("gold" not found)")},
       .want_error = R"(failed to get snapshot class gold for snapshot content content-1: )"
                     R"(volumesnapshotclass.snapshot.storage.k8s.io "gold" not found)"},
      {.name = "ReadyImportedContentMakesNoCalls",
       .content = ImportedContent([](auto& c) { c.status = ReadyStatus(); })},
      {.name = "GroupMemberWithBothHandlesIsCheckedWithAnnotationSecrets",
       .content = Content([](auto& c) {
         c.spec.volume_snapshot_class_name.reset();
         c.metadata.annotations[snapshot::kGroupSnapshotHandleAnnotation] = "group-1";
         c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "creds";
         c.metadata.annotations[snapshot::kDeletionSecretNamespaceAnnotation] = "ns";
         c.status = kube::VolumeSnapshotContentStatus{.snapshot_handle = "member-handle",
                                                      .ready_to_use = false,
                                                      .volume_group_snapshot_handle = "group-1"};
       }),
       .secrets = {Secret("ns", "creds", {{"password", "hunter2"}})},
       .driver = {.list = {std::optional(
                      Snapshot([](auto& s) { s.snapshot_id = "member-handle"; }))}},
       .want_api = {GetSecret("ns", "creds"), WriteStatus("10", {{"creationTime", kCreated},
                                                                 {"restoreSize", kGiB},
                                                                 {"readyToUse", true}})},
       .want_csi = {ListCall("member-handle", {{"password", "hunter2"}})}},
  };
}

INSTANTIATE_TEST_SUITE_P(Table, CsiContentHandlerList, ::testing::ValuesIn(ListCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace snapshotter::testing
