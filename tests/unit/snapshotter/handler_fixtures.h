// Objects and the table runner's kind (sync_case.h) shared by the
// CsiContentHandler tests. The defaults describe one healthy dynamic content: "content-1"
// (resourceVersion 10, our finalizer, policy Delete, class "gold") of driver csi.example.com for
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
#include "snapshot/names.h"
#include "snapshotter/csi_content_handler.h"
#include "tests/unit/snapshotter/fakes.h"
#include "tests/unit/snapshotter/patch_bodies.h"
#include "tests/unit/snapshotter/sync_case.h"

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

// A content of either kind: `name` (UID "<name>-uid", resourceVersion 10)
// with our `finalizer`, policy Delete, of driver kDriver.
template <class Content>
Content ContentOf(const std::string& name, std::string_view finalizer) {
  Content content;
  content.metadata.name = name;
  content.metadata.uid = name + "-uid";
  content.metadata.resource_version = "10";
  content.metadata.finalizers = {std::string(finalizer)};
  content.metadata.has_finalizers_field = true;
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyDelete);
  content.spec.driver = std::string(kDriver);
  return content;
}

// A reference to the (group) snapshot `name` in "default".
inline kube::ObjectReference BoundTo(std::string kind, std::string name, std::string_view uid) {
  kube::ObjectReference ref;
  ref.kind = std::move(kind);
  ref.namespace_ = "default";
  ref.name = std::move(name);
  ref.uid = std::string(uid);
  return ref;
}

inline kube::VolumeSnapshotContent Content(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  auto content = ContentOf<kube::VolumeSnapshotContent>("content-1", snapshot::kContentFinalizer);
  content.spec.volume_snapshot_ref = BoundTo("VolumeSnapshot", "snap-1", kUid);
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

// Edits marking the content deleted by the user, and its (group) snapshot
// too: the controller's `being_deleted` annotation.
template <class Content>
void MarkDeletedWith(Content& c, std::string_view being_deleted) {
  c.metadata.deletion_timestamp = std::string(kDeleted);
  c.metadata.annotations[std::string(being_deleted)] = "yes";
}
inline void MarkDeleted(kube::VolumeSnapshotContent& c) {
  MarkDeletedWith(c, snapshot::kBeingDeletedAnnotation);
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

// The annotation added to a content without annotations.
inline const ApiCall kAddBeingCreated =
    PatchContent("content-1", AddFirstAnnotationBody(snapshot::kBeingCreatedAnnotation));
// The annotation added next to others.
inline const ApiCall kAppendBeingCreated =
    PatchContent("content-1", AppendAnnotationBody(snapshot::kBeingCreatedAnnotation));
inline const ApiCall kRemoveBeingCreated =
    PatchContent("content-1", RemoveAnnotationBody(snapshot::kBeingCreatedAnnotation));
// Our finalizer removed at `index`.
inline ApiCall RemoveFinalizer(int index = 0) {
  return PatchContent("content-1", RemoveFinalizerBody(snapshot::kContentFinalizer, index));
}
// A status merge patch guarded by resourceVersion `rv`.
inline ApiCall WriteStatus(std::string rv, nlohmann::json status) {
  return PatchContentStatus("content-1", StatusBody(rv, status));
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

// --- The table runner (sync_case.h) ---------------------------------------

struct SnapshotTestKind {
  using Content = kube::VolumeSnapshotContent;
  using Class = kube::VolumeSnapshotClass;
  using Options = CsiContentHandlerOptions;
  using Driver = FakeSnapshotDriver;
  static inline const Class kDefaultClass = testing::Class();
  static CsiContentHandler MakeHandler(const kube::Store<Class>& classes, SnapshotApi& api,
                                       Driver& driver, ContentEvents& events, Options options,
                                       base::Clock& clock) {
    return CsiContentHandler(classes, api, driver, events, std::move(options), clock);
  }
};

using SyncCase = SyncCaseOf<SnapshotTestKind>;
static_assert(WarmedUp<SyncCase>());

// A handler over fakes, for tests that sync more than once.
class HandlerWorld : public ::testing::Test {
 protected:
  HandlerWorld() { Fill(classes_, {Class()}); }

  base::Result<SyncOutcome> Sync(const kube::VolumeSnapshotContent& content,
                                 CsiContentHandlerOptions options = {}) {
    CsiContentHandler handler(classes_, api_, driver_, events_, std::move(options), clock_);
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

}  // namespace snapshotter::testing
