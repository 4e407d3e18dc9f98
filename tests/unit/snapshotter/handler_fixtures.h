// Objects and the table runner shared by the CsiContentHandler tests, in the
// style of upstream's controllerTest: content, classes and Secrets in; the
// exact API writes, CSI calls, Events and outcome out. The defaults describe
// one healthy dynamic content: "content-1" (resourceVersion 10, our
// finalizer, policy Delete, class "gold") of driver csi.example.com for
// volume "vol-1", bound to VolumeSnapshot default/snap-1 with UID kUid, and
// a driver whose snapshot "snap-handle-1" (1 GiB) is ready. Each case edits
// what it is about.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "snapshotter/csi_content_handler.h"
#include "snapshotter/names.h"
#include "tests/unit/snapshotter/fakes.h"

namespace snapshotter::testing {

inline constexpr std::string_view kDriver = "csi.example.com";
inline constexpr std::string_view kUid = "0a1b2c3d-4e5f-6789-abcd-ef0123456789";
inline const std::string kSnapshotName = "snapshot-" + std::string(kUid);
inline constexpr std::string_view kHandle = "snap-handle-1";
inline constexpr int64_t kGiB = int64_t{1} << 30;
// The driver's creation time, and FakeClock's wall time (as Unix nanoseconds
// and as metav1.Time writes it).
inline constexpr int64_t kCreated = 1690000000'000000000;
inline constexpr int64_t kNowNanos = 1700000000'000000000;
inline constexpr std::string_view kNow = "2023-11-14T22:13:20Z";
inline constexpr std::string_view kDeleted = "2023-11-14T22:00:00Z";

inline const base::Error kDeadline =
    base::Error::Grpc(4, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
inline const base::Error kInvalidArgument =
    base::Error::Grpc(3, "rpc error: code = InvalidArgument desc = bad volume");
inline const base::Error kBoom = base::Error::Http(500, "boom");

template <class T>
using Edit = std::function<void(T&)>;

template <class T>
T Edited(T object, const Edit<T>& edit) {
  if (edit) edit(object);
  return object;
}

inline kube::VolumeSnapshotContent Content(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content;
  content.metadata.name = "content-1";
  content.metadata.uid = "content-uid-1";
  content.metadata.resource_version = "10";
  content.metadata.finalizers = {std::string(kContentFinalizer)};
  content.metadata.has_finalizers_field = true;
  content.spec.volume_snapshot_ref.kind = "VolumeSnapshot";
  content.spec.volume_snapshot_ref.name = "snap-1";
  content.spec.volume_snapshot_ref.namespace_ = "default";
  content.spec.volume_snapshot_ref.uid = std::string(kUid);
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.driver = std::string(kDriver);
  content.spec.volume_snapshot_class_name = "gold";
  content.spec.source.volume_handle = "vol-1";
  return Edited(std::move(content), edit);
}

// What a successful create of a ready snapshot leaves behind.
inline kube::VolumeSnapshotContentStatus ReadyStatus() {
  kube::VolumeSnapshotContentStatus status;
  status.snapshot_handle = std::string(kHandle);
  status.creation_time = kCreated;
  status.restore_size = kGiB;
  status.ready_to_use = true;
  return status;
}

// A pre-provisioned content for an existing snapshot, unbound.
inline kube::VolumeSnapshotContent ImportedContent(
    const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = Content([](auto& c) {
    c.spec.source = {.snapshot_handle = std::string(kHandle)};
    c.spec.volume_snapshot_class_name.reset();
    c.spec.volume_snapshot_ref.uid.clear();
  });
  return Edited(std::move(content), edit);
}

// Edits marking the content deleted by the user, and its VolumeSnapshot too.
inline void MarkDeleted(kube::VolumeSnapshotContent& c) {
  c.metadata.deletion_timestamp = std::string(kDeleted);
  c.metadata.annotations[kBeingDeletedAnnotation] = "yes";
}

inline kube::VolumeSnapshotClass Class(const Edit<kube::VolumeSnapshotClass>& edit = {}) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = "gold";
  snapshot_class.driver = std::string(kDriver);
  snapshot_class.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  return Edited(std::move(snapshot_class), edit);
}

inline kube::Secret Secret(std::string ns, std::string name, kube::StringMap data) {
  kube::Secret secret;
  secret.metadata.namespace_ = std::move(ns);
  secret.metadata.name = std::move(name);
  secret.data = std::move(data);
  return secret;
}

inline DriverSnapshot Snapshot(const Edit<DriverSnapshot>& edit = {}) {
  DriverSnapshot snapshot{.snapshot_id = std::string(kHandle),
                          .creation_time = kCreated,
                          .size_bytes = kGiB,
                          .ready_to_use = true};
  return Edited(std::move(snapshot), edit);
}

// The CreateSnapshot of the default content.
inline CreateSnapshotRequest Create(const Edit<CreateSnapshotRequest>& edit = {}) {
  CreateSnapshotRequest request{.name = kSnapshotName, .source_volume_id = "vol-1"};
  return Edited(std::move(request), edit);
}

// --- API call bodies -------------------------------------------------------

inline const std::string kBeingCreatedPath =
    "/metadata/annotations/snapshot.storage.kubernetes.io~1volumesnapshot-being-created";
// The annotation added to a content without annotations.
inline const ApiCall kAddBeingCreated = PatchContent(
    "content-1",
    R"([{"op":"test","path":"/metadata/annotations","value":null},)"
    R"({"op":"add","path":"/metadata/annotations",)"
    R"("value":{"snapshot.storage.kubernetes.io/volumesnapshot-being-created":"yes"}}])");
// The annotation added next to others.
inline const ApiCall kAppendBeingCreated = PatchContent(
    "content-1", R"([{"op":"add","path":")" + kBeingCreatedPath + R"(","value":"yes"}])");
inline const ApiCall kRemoveBeingCreated = PatchContent(
    "content-1", R"([{"op":"test","path":")" + kBeingCreatedPath + R"(","value":"yes"},)" +
                     R"({"op":"remove","path":")" + kBeingCreatedPath + R"("}])");
// Our finalizer removed at `index`.
inline ApiCall RemoveFinalizer(int index = 0) {
  std::string path = "/metadata/finalizers/" + std::to_string(index);
  return PatchContent(
      "content-1",
      R"([{"op":"test","path":")" + path +
          R"(","value":"snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection"},)" +
          R"({"op":"remove","path":")" + path + R"("}])");
}
// A status merge patch guarded by resourceVersion `rv`.
inline ApiCall WriteStatus(std::string rv, nlohmann::json status) {
  return PatchContentStatus(
      "content-1",
      nlohmann::json{{"metadata", {{"resourceVersion", rv}}}, {"status", status}}.dump());
}
// The status a ready snapshot gets on a content without status.
inline nlohmann::json ReadyStatusBody() {
  return {{"snapshotHandle", kHandle},
          {"creationTime", kCreated},
          {"restoreSize", kGiB},
          {"readyToUse", true}};
}
// status.error at kNow and readyToUse false.
inline nlohmann::json ErrorStatusBody(const std::string& message) {
  return {{"error", {{"message", message}, {"time", kNow}}}, {"readyToUse", false}};
}
// The message a failing CreateSnapshot leaves for `error`.
inline std::string TakeFailed(const base::Error& error) {
  return "failed to take snapshot of the volume vol-1: \"" + error.message + "\"";
}

// --- The table runner ------------------------------------------------------

// One SyncContent of `content` (also the API server's copy), checked against
// the exact API and CSI calls it must make, in order, the Events and the
// outcome.
struct SyncCase {
  std::string name = {};
  kube::VolumeSnapshotContent content = {};
  std::vector<kube::VolumeSnapshotClass> classes = {Class()};
  std::vector<kube::Secret> secrets = {};
  CsiContentHandlerOptions options = {};
  std::vector<ApiFailure> api_failures = {};
  DriverScript driver = {};
  std::vector<ApiCall> want_api = {};
  std::vector<std::string> want_csi = {};
  std::vector<std::string> want_events = {};
  SyncOutcome want_outcome = SyncOutcome::kDone;
  std::string want_error = {};  // empty: success with want_outcome
  // Checks the API server's copy afterwards (nullopt: the content is gone).
  std::function<void(const std::optional<kube::VolumeSnapshotContent>&)> want_stored = {};
};

inline void PrintTo(const SyncCase& c, std::ostream* os) { *os << c.name; }

inline void Fill(kube::Store<kube::VolumeSnapshotClass>& store,
                 const std::vector<kube::VolumeSnapshotClass>& classes) {
  for (const auto& c : classes) store.Upsert(std::make_shared<const kube::VolumeSnapshotClass>(c));
}

// A handler over fakes, for tests that sync more than once.
class HandlerWorld : public ::testing::Test {
 protected:
  HandlerWorld() { Fill(classes_, {Class()}); }

  base::Result<SyncOutcome> Sync(const kube::VolumeSnapshotContent& content,
                                 CsiContentHandlerOptions options = {}) {
    CsiContentHandler handler(std::string(kDriver), classes_, api_, driver_, events_,
                              std::move(options), clock_);
    return handler.SyncContent(content);
  }
  // The API server's copy of content-1, which must exist.
  kube::VolumeSnapshotContent Stored() {
    auto stored = api_.Stored("content-1");
    EXPECT_TRUE(stored.has_value()) << "content-1 is gone";
    return stored.value_or(kube::VolumeSnapshotContent{});
  }

  kube::Store<kube::VolumeSnapshotClass> classes_;
  base::FakeClock clock_;
  FakeSnapshotApi api_;
  FakeSnapshotDriver driver_;
  FakeContentEvents events_;
};

inline void RunSyncCase(const SyncCase& c) {
  kube::Store<kube::VolumeSnapshotClass> classes;
  Fill(classes, c.classes);
  base::FakeClock clock;
  FakeSnapshotApi api(c.api_failures);
  api.Put(c.content);
  for (const kube::Secret& secret : c.secrets) api.AddSecret(secret);
  FakeSnapshotDriver driver(c.driver);
  FakeContentEvents events;
  CsiContentHandler handler(std::string(kDriver), classes, api, driver, events, c.options, clock);

  base::Result<SyncOutcome> outcome = handler.SyncContent(c.content);

  if (c.want_error.empty()) {
    ASSERT_TRUE(outcome.ok()) << outcome.error().message;
    EXPECT_EQ(*outcome, c.want_outcome);
  } else {
    ASSERT_FALSE(outcome.ok());
    EXPECT_EQ(outcome.error().message, c.want_error);
  }
  EXPECT_THAT(api.calls(), ::testing::ElementsAreArray(c.want_api));
  EXPECT_THAT(driver.calls(), ::testing::ElementsAreArray(c.want_csi));
  EXPECT_THAT(events.events(), ::testing::ElementsAreArray(c.want_events));
  if (c.want_stored) c.want_stored(api.Stored(c.content.metadata.name));
}

}  // namespace snapshotter::testing
