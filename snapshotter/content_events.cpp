#include "snapshotter/content_events.h"

namespace snapshotter {

void RecordedContentEvents::CreationFailed(const kube::VolumeSnapshotContent& content,
                                           const std::string& message) {
  Warn(content, kSnapshotCreationFailedReason, message);
}

void RecordedContentEvents::CheckAndUpdateFailed(const kube::VolumeSnapshotContent& content,
                                                 const std::string& message) {
  Warn(content, kSnapshotContentCheckAndUpdateFailedReason, message);
}

void RecordedContentEvents::DeleteFailed(const kube::VolumeSnapshotContent& content,
                                         std::string_view message) {
  Warn(content, kSnapshotDeleteErrorReason, message);
}

void RecordedContentEvents::Warn(const kube::VolumeSnapshotContent& content,
                                 std::string_view reason, std::string_view message) {
  recorder_.Record(kube::ReferenceTo(content), kube::kEventTypeWarning, reason, message);
}

}  // namespace snapshotter
