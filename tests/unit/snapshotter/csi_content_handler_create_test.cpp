// docs/snapshots.md §3.4 create (§6 categories 1 and 2): a dynamic content is
// created step by step - class, Secret, parameters, being-created
// annotation, CreateSnapshot, status, annotation removed - with the exact
// API writes and CSI request; failures save status.error and report the
// Warning Event of the attempt; the annotation stays on non-final errors
// and goes on final ones.
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "tests/unit/snapshotter/handler_fixtures.h"

namespace snapshotter::testing {
namespace {

const std::string kMissingSecret =
    R"(failed to get input parameters to create snapshot for content content-1: )"
    R"("cannot get credentials for snapshot content \"content-1\"")";

// The content after a first create that timed out.
kube::VolumeSnapshotContent TimedOutContent(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = Content([](auto& c) {
    c.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
    c.status = kube::VolumeSnapshotContentStatus{
        .ready_to_use = false,
        .error = kube::VolumeSnapshotError{
            .time = "2023-11-14T22:10:00Z",
            .message = "Failed to create snapshot: " + TakeFailed(kDeadline)}};
  });
  return Edited(std::move(content), edit);
}

void WithSecretAnnotations(kube::VolumeSnapshotContent& c) {
  c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "creds";
  c.metadata.annotations[snapshot::kDeletionSecretNamespaceAnnotation] = "ns";
}

class CsiContentHandlerCreate : public ::testing::TestWithParam<SyncCase> {};

TEST_P(CsiContentHandlerCreate, Sync) { RunSyncCase(GetParam()); }

std::vector<SyncCase> CreateCases() {
  return {
      // --- category 1: create ---
      {.name = "ReadyAtOnceWritesStatusThenRemovesAnnotation",
       .content = Content(),
       .driver = {.create = {Snapshot()}},
       .want_api = {kAddBeingCreated, WriteStatus("11", ReadyStatusBody()), kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())},
       .want_outcome = SyncOutcome::kDone,
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_EQ(stored->status, ReadyStatus());
             EXPECT_FALSE(stored->metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));
           }},
      {.name = "UnreadyIsPolledForReadiness",
       .content = Content(),
       .driver = {.create = {Snapshot([](auto& s) { s.ready_to_use = false; })}},
       .want_api = {kAddBeingCreated,
                    WriteStatus("11", {{"snapshotHandle", kHandle},
                                       {"creationTime", kCreated},
                                       {"restoreSize", kGiB},
                                       {"readyToUse", false}}),
                    kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())},
       .want_outcome = SyncOutcome::kPollReadiness},
      {.name = "UnreadyTurningReadyWritesOnlyReadyToUse",
       .content = Content([](auto& c) {
         c.status = ReadyStatus();
         c.status->ready_to_use = false;
       }),
       .driver = {.create = {Snapshot()}},
       .want_api = {WriteStatus("10", {{"readyToUse", true}})},
       .want_csi = {CreateCall(Create())},
       .want_outcome = SyncOutcome::kDone},
      {.name = "ReadyClearsAnEarlierError",
       .content = TimedOutContent(),
       .driver = {.create = {Snapshot()}},
       .want_api = {WriteStatus("10", {{"snapshotHandle", kHandle},
                                       {"creationTime", kCreated},
                                       {"restoreSize", kGiB},
                                       {"readyToUse", true},
                                       {"error", nullptr}}),
                    kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())},
       .want_outcome = SyncOutcome::kDone},
      {.name = "UnknownSizeIsNotWritten",
       .content = Content(),
       .driver = {.create = {Snapshot([](auto& s) { s.size_bytes = 0; })}},
       .want_api = {kAddBeingCreated,
                    WriteStatus("11", {{"snapshotHandle", kHandle},
                                       {"creationTime", kCreated},
                                       {"readyToUse", true}}),
                    kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())}},
      {.name = "MissingCreationTimeIsTheUnixEpochAsUpstreamReadsIt",
       .content = Content(),
       .driver = {.create = {Snapshot([](auto& s) { s.creation_time = 0; })}},
       .want_api = {kAddBeingCreated,
                    WriteStatus("11", {{"snapshotHandle", kHandle},
                                       {"creationTime", 0},
                                       {"restoreSize", kGiB},
                                       {"readyToUse", true}}),
                    kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())}},
      {.name = "CreationTimeOutOfRangeBecomesNow",
       .content = Content(),
       .driver = {.create = {Snapshot([](auto& s) { s.creation_time.reset(); })}},
       .want_api = {kAddBeingCreated,
                    WriteStatus("11", {{"snapshotHandle", kHandle},
                                       {"creationTime", kNowNanos},
                                       {"restoreSize", kGiB},
                                       {"readyToUse", true}}),
                    kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())}},
      {.name = "SecretDataAreSentAsSecrets",
       .content = Content(WithSecretAnnotations),
       .secrets = {Secret("ns", "creds", {{"password", "hunter2"}})},
       .driver = {.create = {Snapshot()}},
       .want_api = {GetSecret("ns", "creds"), kAppendBeingCreated,
                    WriteStatus("11", ReadyStatusBody()), kRemoveBeingCreated},
       .want_csi = {CreateCall(Create([](auto& r) {
         r.secrets = {{"password", "hunter2"}};
       }))}},
      {.name = "MissingSecretFailsBeforeTheAnnotation",
       .content = Content(WithSecretAnnotations),
       .want_api = {GetSecret("ns", "creds"),
                    WriteStatus("10",
                                ErrorStatusBody("Failed to create snapshot: " + kMissingSecret))},
       .want_events = {"SnapshotCreationFailed content-1: Failed to create snapshot: " +
                       kMissingSecret},
       .want_error = kMissingSecret},
      {.name = "SecretReadErrorFailsLikeAMissingSecret",
       .content = Content(WithSecretAnnotations),
       .api_failures = {{"get", "secrets", "", kBoom}},
       .want_api = {GetSecret("ns", "creds"),
                    WriteStatus("10",
                                ErrorStatusBody("Failed to create snapshot: " + kMissingSecret))},
       .want_events = {"SnapshotCreationFailed content-1: Failed to create snapshot: " +
                       kMissingSecret},
       .want_error = kMissingSecret},
      {.name = "HalfSetSecretAnnotationsFail",
       .content = Content([](auto& c) {
         WithSecretAnnotations(c);
         c.metadata.annotations[snapshot::kDeletionSecretNamespaceAnnotation] = "";
       }),
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(
                     R"(Failed to create snapshot: failed to get input parameters to create )"
                     R"(snapshot for content content-1: "cannot retrieve secrets for snapshot )"
                     R"(content \"content-1\", err: secret name or namespace not specified")"))},
       .want_events = {R"(SnapshotCreationFailed content-1: Failed to create snapshot: failed )"
                       R"(to get input parameters to create snapshot for content content-1: )"
                       R"("cannot retrieve secrets for snapshot content \"content-1\", err: )"
                       R"(secret name or namespace not specified")"},
       .want_error = R"(failed to get input parameters to create snapshot for content )"
                     R"(content-1: "cannot retrieve secrets for snapshot content )"
                     R"(\"content-1\", err: secret name or namespace not specified")"},
      {.name = "OnlyOneSecretAnnotationMeansNoSecretsAsUpstream",
       .content = Content([](auto& c) {
         c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "creds";
       }),
       .driver = {.create = {Snapshot()}},
       .want_api = {kAppendBeingCreated, WriteStatus("11", ReadyStatusBody()), kRemoveBeingCreated},
       .want_csi = {CreateCall(Create())}},
      {.name = "ClassMissingFromCacheFails",
       .content = Content(),
       .classes = {},
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(
                     R"(Failed to create snapshot: failed to get input parameters to create )"
                     R"(snapshot for content content-1: "volumesnapshotclass.snapshot.storage.)"
                     R"(k8s.io \"gold\" not found")"))},
       .want_events = {R"(SnapshotCreationFailed content-1: Failed to create snapshot: failed )"
                       R"(to get input parameters to create snapshot for content content-1: )"
                       R"("volumesnapshotclass.snapshot.storage.k8s.io \"gold\" not found")"},
       .want_error = R"(failed to get input parameters to create snapshot for content )"
                     R"(content-1: "volumesnapshotclass.snapshot.storage.k8s.io \"gold\" not )"
                     R"(found")"},
      {.name = "DynamicContentWithoutClassFails",
       .content = Content([](auto& c) { c.spec.volume_snapshot_class_name.reset(); }),
       .want_api = {WriteStatus(
           "10",
           ErrorStatusBody(R"(Failed to create snapshot: failed to get input parameters to create )"
                           R"(snapshot for content content-1: "failed to take snapshot content-1 )"
                           R"(without a snapshot class")"))},
       .want_events = {R"(SnapshotCreationFailed content-1: Failed to create snapshot: failed )"
                       R"(to get input parameters to create snapshot for content content-1: )"
                       R"("failed to take snapshot content-1 without a snapshot class")"},
       .want_error = R"(failed to get input parameters to create snapshot for content )"
                     R"(content-1: "failed to take snapshot content-1 without a snapshot )"
                     R"(class")"},
      {.name = "ClassParametersWithoutKnownReservedKeysAreSent",
       .content = Content(),
       .classes = {Class([](auto& c) {
         c.parameters = {{"tier", "gold"},
                         {"csi.storage.k8s.io/snapshotter-secret-name", "creds"},
                         {"csi.storage.k8s.io/snapshotter-secret-namespace", "ns"},
                         {"csi.storage.k8s.io/snapshotter-list-secret-name", "list"},
                         {"csi.storage.k8s.io/snapshotter-list-secret-namespace", "ns"},
                         {"csi.storage.k8s.io/group-snapshotter-secret-name", "g"},
                         {"csi.storage.k8s.io/group-snapshotter-secret-namespace", "ns"},
                         {"csi.storage.k8s.io/group-snapshotter-get-secret-name", "gg"},
                         {"csi.storage.k8s.io/group-snapshotter-get-secret-namespace", "ns"},
                         {"csi.storage.k8s.io-like/kept", "x"}};
       })},
       .driver = {.create = {Snapshot()}},
       .want_api = {kAddBeingCreated, WriteStatus("11", ReadyStatusBody()), kRemoveBeingCreated},
       .want_csi = {CreateCall(Create([](auto& r) {
         r.parameters = {{"tier", "gold"}, {"csi.storage.k8s.io-like/kept", "x"}};
       }))}},
      {.name = "UnknownReservedParameterFailsBeforeTheAnnotation",
       .content = Content(),
       .classes = {Class([](auto& c) {
         c.parameters = {{"tier", "gold"}, {"csi.storage.k8s.io/bogus", "x"}};
       })},
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(R"(Failed to create snapshot: failed to remove CSI Parameters )"
                                 R"(of prefixed keys: found unknown parameter key )"
                                 R"("csi.storage.k8s.io/bogus" with reserved namespace )"
                                 R"(csi.storage.k8s.io/)"))},
       .want_events = {R"(SnapshotCreationFailed content-1: Failed to create snapshot: failed )"
                       R"(to remove CSI Parameters of prefixed keys: found unknown parameter key )"
                       R"("csi.storage.k8s.io/bogus" with reserved namespace csi.storage.k8s.io/)"},
       .want_error = R"(failed to remove CSI Parameters of prefixed keys: found unknown )"
                     R"(parameter key "csi.storage.k8s.io/bogus" with reserved namespace )"
                     R"(csi.storage.k8s.io/)"},
      {.name = "ExtraCreateMetadataAddsSnapshotAndContentNames",
       .content = Content(),
       .classes = {Class([](auto& c) {
         c.parameters = {{"tier", "gold"}};
       })},
       .options = {.extra_create_metadata = true},
       .driver = {.create = {Snapshot()}},
       .want_api = {kAddBeingCreated, WriteStatus("11", ReadyStatusBody()), kRemoveBeingCreated},
       .want_csi = {CreateCall(Create([](auto& r) {
         r.parameters = {{"tier", "gold"},
                         {"csi.storage.k8s.io/volumesnapshot/name", "snap-1"},
                         {"csi.storage.k8s.io/volumesnapshot/namespace", "default"},
                         {"csi.storage.k8s.io/volumesnapshotcontent/name", "content-1"}};
       }))}},
      {.name = "NamePrefixAndUuidLength",
       .content = Content(),
       .options = {.snapshot_name_prefix = "snap", .snapshot_name_uuid_length = 8},
       .driver = {.create = {Snapshot()}},
       .want_api = {kAddBeingCreated, WriteStatus("11", ReadyStatusBody()), kRemoveBeingCreated},
       .want_csi = {CreateCall(Create([](auto& r) { r.name = "snap-0a1b2c3d"; }))}},
      {.name = "UnboundContentFailsBeforeTheAnnotation",
       .content = Content([](auto& c) { c.spec.volume_snapshot_ref.uid.clear(); }),
       .want_api = {WriteStatus(
           "10", ErrorStatusBody(R"(Failed to create snapshot: failed to take snapshot of the )"
                                 R"(volume vol-1: "cannot create snapshot. Snapshot content )"
                                 R"(content-1 not bound to a snapshot")"))},
       .want_events = {R"(SnapshotCreationFailed content-1: Failed to create snapshot: failed )"
                       R"(to take snapshot of the volume vol-1: "cannot create snapshot. )"
                       R"(Snapshot content content-1 not bound to a snapshot")"},
       .want_error = R"(failed to take snapshot of the volume vol-1: "cannot create snapshot. )"
                     R"(Snapshot content content-1 not bound to a snapshot")"},
      {.name = "ContentWithoutSourceFailsClearly",
       .content = Content([](auto& c) {
         c.spec.source = {};
         c.status = kube::VolumeSnapshotContentStatus{.ready_to_use = false};
       }),
       .want_api = {WriteStatus(
           "10", {{"error",
                   {{"message",
                     "Failed to check and update snapshot content: cannot create snapshot. Volume "
                     "handle not found in snapshot content content-1"},
                    {"time", kNow}}}})},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: Failed to check and update "
                       "snapshot content: cannot create snapshot. Volume handle not found in "
                       "snapshot content content-1"},
       .want_error = "cannot create snapshot. Volume handle not found in snapshot content "
                     "content-1"},
      {.name = "ReadyContentRemovesLeftoverAnnotationWithoutCsiCalls",
       .content = Content([](auto& c) {
         c.status = ReadyStatus();
         c.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
       }),
       .want_api = {kRemoveBeingCreated},
       .want_outcome = SyncOutcome::kDone},
      {.name = "ReadyContentIsLeftAlone",
       .content = Content([](auto& c) { c.status = ReadyStatus(); }),
       .want_outcome = SyncOutcome::kDone},
      {.name = "GroupMemberIsPolledWithoutCreate",
       .content = Content([](auto& c) {
         c.metadata.annotations[snapshot::kGroupSnapshotHandleAnnotation] = "group-1";
         c.spec.volume_snapshot_class_name.reset();
       }),
       .want_outcome = SyncOutcome::kPollReadiness},

      // --- category 2: errors and the being-created annotation ---
      {.name = "TimeoutKeepsTheAnnotation",
       .content = Content(),
       .driver = {.create = {kDeadline}},
       .want_api = {kAddBeingCreated,
                    WriteStatus("11", ErrorStatusBody("Failed to create snapshot: " +
                                                      TakeFailed(kDeadline)))},
       .want_csi = {CreateCall(Create())},
       .want_events = {"SnapshotCreationFailed content-1: Failed to create snapshot: " +
                       TakeFailed(kDeadline)},
       .want_error = TakeFailed(kDeadline),
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_EQ(stored->metadata.annotations.find(snapshot::kBeingCreatedAnnotation)->second,
                       "yes");
           }},
      {.name = "FinalErrorRemovesTheAnnotation",
       .content = Content(),
       .driver = {.create = {kInvalidArgument}},
       .want_api = {kAddBeingCreated, kRemoveBeingCreated,
                    WriteStatus("12", ErrorStatusBody("Failed to create snapshot: " +
                                                      TakeFailed(kInvalidArgument)))},
       .want_csi = {CreateCall(Create())},
       .want_events = {"SnapshotCreationFailed content-1: Failed to create snapshot: " +
                       TakeFailed(kInvalidArgument)},
       .want_error = TakeFailed(kInvalidArgument),
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_FALSE(stored->metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));
           }},
      {.name = "LaterAttemptReportsCheckAndUpdateFailed",
       .content = TimedOutContent(),
       .driver = {.create = {kDeadline}},
       .want_api = {WriteStatus(
           "10",
           {{"error",
             {{"message", "Failed to check and update snapshot content: " + TakeFailed(kDeadline)},
              {"time", kNow}}}})},
       .want_csi = {CreateCall(Create())},
       .want_events = {"SnapshotContentCheckandUpdateFailed content-1: Failed to check and "
                       "update snapshot content: " +
                       TakeFailed(kDeadline)},
       .want_error = TakeFailed(kDeadline)},
      {.name = "SameErrorAgainWritesNothingAndReportsNothing",
       .content = TimedOutContent([](auto& c) {
         c.status->error->message =
             "Failed to check and update snapshot content: " + TakeFailed(kDeadline);
       }),
       .driver = {.create = {kDeadline}},
       .want_csi = {CreateCall(Create())},
       .want_error = TakeFailed(kDeadline)},
      {.name = "FailedAnnotationPatchSendsNoCreate",
       .content = Content(),
       .api_failures = {{"patch", "volumesnapshotcontents", "", kBoom}},
       .want_api = {kAddBeingCreated,
                    WriteStatus("10",
                                ErrorStatusBody(
                                    R"(Failed to create snapshot: failed to add )"
                                    R"(VolumeSnapshotBeingCreated annotation on the content )"
                                    R"(content-1: "snapshot controller failed to update content-1 )"
                                    R"(on API server: boom")"))},
       .want_events = {R"(SnapshotCreationFailed content-1: Failed to create snapshot: failed )"
                       R"(to add VolumeSnapshotBeingCreated annotation on the content )"
                       R"(content-1: "snapshot controller failed to update content-1 on API )"
                       R"(server: boom")"},
       .want_error = R"(failed to add VolumeSnapshotBeingCreated annotation on the content )"
                     R"(content-1: "snapshot controller failed to update content-1 on API )"
                     R"(server: boom")"},
      {.name = "FailedStatusWriteKeepsTheAnnotationSoNothingLeaks",
       .content = Content(),
       .api_failures = {{"patch", "volumesnapshotcontents", "status", kBoom}},
       .driver = {.create = {Snapshot()}},
       .want_api = {kAddBeingCreated, WriteStatus("11", ReadyStatusBody()),
                    WriteStatus("11", ErrorStatusBody(
                                          "Failed to create snapshot: error updating status for "
                                          "volume snapshot content content-1: snapshot "
                                          "controller failed to update content-1 on API server: "
                                          "boom"))},
       .want_csi = {CreateCall(Create())},
       .want_events = {"SnapshotCreationFailed content-1: Failed to create snapshot: error "
                       "updating status for volume snapshot content content-1: snapshot "
                       "controller failed to update content-1 on API server: boom"},
       .want_error = "error updating status for volume snapshot content content-1: snapshot "
                     "controller failed to update content-1 on API server: boom",
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_TRUE(stored->metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));
           }},
  };
}

INSTANTIATE_TEST_SUITE_P(Table, CsiContentHandlerCreate, ::testing::ValuesIn(CreateCases()),
                         [](const auto& info) { return info.param.name; });

// §3.4 create step 7: Canceled, DeadlineExceeded, Unavailable,
// ResourceExhausted, Aborted and errors without a gRPC code may leave a
// create running; each keeps the annotation. Every other code is final.
TEST(CsiContentHandlerCreateCodes, OnlyFinalCodesRemoveTheAnnotation) {
  struct CodeCase {
    base::Error error;
    bool final;
  };
  std::vector<CodeCase> cases = {
      {base::Error::Grpc(1, "canceled"), false},      {base::Error::Grpc(4, "deadline"), false},
      {base::Error::Grpc(14, "unavailable"), false},  {base::Error::Grpc(8, "exhausted"), false},
      {base::Error::Grpc(10, "aborted"), false},      {base::Error("driver name is empty"), false},
      {base::Error::Grpc(2, "unknown"), true},        {base::Error::Grpc(3, "invalid"), true},
      {base::Error::Grpc(5, "not found"), true},      {base::Error::Grpc(9, "precondition"), true},
      {base::Error::Grpc(12, "unimplemented"), true}, {base::Error::Grpc(13, "internal"), true},
  };
  for (const CodeCase& c : cases) {
    SCOPED_TRACE(c.error.message);
    kube::Store<kube::VolumeSnapshotClass> classes;
    Fill(classes, {Class()});
    base::FakeClock clock;
    FakeSnapshotApi api;
    api.Put(Content());
    FakeSnapshotDriver driver({.create = {c.error}});
    FakeContentEvents events;
    CsiContentHandler handler(classes, api, driver, events, {}, clock);
    EXPECT_FALSE(handler.SyncContent(Content()).ok());
    EXPECT_EQ(
        api.Stored("content-1")->metadata.annotations.contains(snapshot::kBeingCreatedAnnotation),
        !c.final);
  }
}

}  // namespace
}  // namespace snapshotter::testing
