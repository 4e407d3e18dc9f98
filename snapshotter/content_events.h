// ContentEvents: how the content handler reports failures where `kubectl
// describe` shows them (docs/snapshots.md §3.4 "Error status" and step 1).
// The handler only calls it; the interface keeps its unit tests on an
// in-memory fake.
//
// RecordedContentEvents writes Warning Events on the VolumeSnapshotContent
// through a kube::EventRecorder, which never blocks and rate-limits repeats.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/tools/event_recorder.h"

namespace snapshotter {

inline constexpr std::string_view kSnapshotCreationFailedReason = "SnapshotCreationFailed";
inline constexpr std::string_view kSnapshotContentCheckAndUpdateFailedReason =
    "SnapshotContentCheckandUpdateFailed";
inline constexpr std::string_view kSnapshotDeleteErrorReason = "SnapshotDeleteError";

// The messages of SnapshotDeleteError, one per failing step.
inline constexpr std::string_view kFailedToGetCredentialsMessage =
    "Failed to get snapshot credentials";
inline constexpr std::string_view kFailedToDeleteMessage = "Failed to delete snapshot";
inline constexpr std::string_view kFailedToClearStatusMessage = "Failed to clear content status";

class ContentEvents {
 public:
  virtual ~ContentEvents() = default;
  // `message` is the one saved in status.error: "Failed to create snapshot: ..."
  // for a content without status, "Failed to check and update snapshot
  // content: ..." afterwards.
  virtual void CreationFailed(const kube::VolumeSnapshotContent& content,
                              const std::string& message) = 0;
  virtual void CheckAndUpdateFailed(const kube::VolumeSnapshotContent& content,
                                    const std::string& message) = 0;
  // `message` is one of the k*Message constants above.
  virtual void DeleteFailed(const kube::VolumeSnapshotContent& content,
                            std::string_view message) = 0;
};

class RecordedContentEvents final : public ContentEvents {
 public:
  explicit RecordedContentEvents(kube::EventRecorder& recorder) : recorder_(recorder) {}

  void CreationFailed(const kube::VolumeSnapshotContent& content,
                      const std::string& message) override;
  void CheckAndUpdateFailed(const kube::VolumeSnapshotContent& content,
                            const std::string& message) override;
  void DeleteFailed(const kube::VolumeSnapshotContent& content, std::string_view message) override;

 private:
  void Warn(const kube::VolumeSnapshotContent& content, std::string_view reason,
            std::string_view message);

  kube::EventRecorder& recorder_;
};

}  // namespace snapshotter
