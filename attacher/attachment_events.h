// AttachmentEvents: how the CSI handler reports a failed attach or detach
// where `kubectl describe` shows it (docs/attacher.md §7, external-attacher#363),
// besides status.attachError/detachError. The handler only calls it; the
// interface keeps its unit tests on an in-memory fake.
//
// RecordedAttachmentEvents writes a Warning Event (reason AttachFailed /
// DetachFailed, the message saved in the status) on the VolumeAttachment
// through a kube::EventRecorder, which never blocks and rate-limits repeats.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/tools/event_recorder.h"

namespace attacher {

inline constexpr std::string_view kAttachFailedReason = "AttachFailed";
inline constexpr std::string_view kDetachFailedReason = "DetachFailed";

class AttachmentEvents {
 public:
  virtual ~AttachmentEvents() = default;
  virtual void AttachFailed(const kube::VolumeAttachment& va, const std::string& message) = 0;
  virtual void DetachFailed(const kube::VolumeAttachment& va, const std::string& message) = 0;
};

class RecordedAttachmentEvents final : public AttachmentEvents {
 public:
  explicit RecordedAttachmentEvents(kube::EventRecorder& recorder) : recorder_(recorder) {}

  void AttachFailed(const kube::VolumeAttachment& va, const std::string& message) override;
  void DetachFailed(const kube::VolumeAttachment& va, const std::string& message) override;

 private:
  kube::EventRecorder& recorder_;
};

}  // namespace attacher
