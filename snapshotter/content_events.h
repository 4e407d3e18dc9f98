// ContentEventsOf<Content>: how a content handler reports failures where
// `kubectl describe` shows them (docs/snapshots.md §3.4 "Error status" and
// step 1; §3.8 for groups). The handler only calls it; the interface keeps
// its unit tests on an in-memory fake.
//
// RecordedContentEventsOf writes Warning Events on the content through a
// kube::EventRecorder, which never blocks and rate-limits repeats, with the
// kind's reasons (EventReasonsFor). Both kinds are instantiated in
// content_events.cpp.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/tools/event_recorder.h"

namespace snapshotter {

inline constexpr std::string_view kSnapshotCreationFailedReason = "SnapshotCreationFailed";
inline constexpr std::string_view kSnapshotContentCheckAndUpdateFailedReason =
    "SnapshotContentCheckandUpdateFailed";
inline constexpr std::string_view kSnapshotDeleteErrorReason = "SnapshotDeleteError";
inline constexpr std::string_view kGroupSnapshotCreationFailedReason =
    "GroupSnapshotCreationFailed";
inline constexpr std::string_view kGroupSnapshotContentCheckAndUpdateFailedReason =
    "GroupSnapshotContentCheckandUpdateFailed";
inline constexpr std::string_view kGroupSnapshotDeleteErrorReason = "GroupSnapshotDeleteError";

// The messages of SnapshotDeleteError and GroupSnapshotDeleteError, one per
// failing step.
inline constexpr std::string_view kFailedToGetCredentialsMessage =
    "Failed to get snapshot credentials";
inline constexpr std::string_view kFailedToDeleteMessage = "Failed to delete snapshot";
inline constexpr std::string_view kFailedToDeleteGroupMessage = "Failed to delete group snapshot";
inline constexpr std::string_view kFailedToClearStatusMessage = "Failed to clear content status";

// The reasons of one kind's three Warnings.
struct ContentEventReasons {
  std::string_view creation_failed;
  std::string_view check_and_update_failed;
  std::string_view delete_error;
};

constexpr ContentEventReasons EventReasonsFor(const kube::VolumeSnapshotContent&) {
  return {kSnapshotCreationFailedReason, kSnapshotContentCheckAndUpdateFailedReason,
          kSnapshotDeleteErrorReason};
}
constexpr ContentEventReasons EventReasonsFor(const kube::VolumeGroupSnapshotContent&) {
  return {kGroupSnapshotCreationFailedReason, kGroupSnapshotContentCheckAndUpdateFailedReason,
          kGroupSnapshotDeleteErrorReason};
}

template <class Content>
class ContentEventsOf {
 public:
  virtual ~ContentEventsOf() = default;
  // `message` is the one saved in status.error: "Failed to create snapshot: ..."
  // for a content without status, "Failed to check and update snapshot
  // content: ..." afterwards (with "group snapshot" for a group).
  virtual void CreationFailed(const Content& content, const std::string& message) = 0;
  virtual void CheckAndUpdateFailed(const Content& content, const std::string& message) = 0;
  // `message` is one of the k*Message constants above.
  virtual void DeleteFailed(const Content& content, std::string_view message) = 0;
};

template <class Content>
class RecordedContentEventsOf final : public ContentEventsOf<Content> {
 public:
  explicit RecordedContentEventsOf(kube::EventRecorder& recorder) : recorder_(recorder) {}

  void CreationFailed(const Content& content, const std::string& message) override;
  void CheckAndUpdateFailed(const Content& content, const std::string& message) override;
  void DeleteFailed(const Content& content, std::string_view message) override;

 private:
  void Warn(const Content& content, std::string_view reason, std::string_view message);

  kube::EventRecorder& recorder_;
};

extern template class RecordedContentEventsOf<kube::VolumeSnapshotContent>;
extern template class RecordedContentEventsOf<kube::VolumeGroupSnapshotContent>;

using ContentEvents = ContentEventsOf<kube::VolumeSnapshotContent>;
using GroupContentEvents = ContentEventsOf<kube::VolumeGroupSnapshotContent>;
using RecordedContentEvents = RecordedContentEventsOf<kube::VolumeSnapshotContent>;
using RecordedGroupContentEvents = RecordedContentEventsOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
