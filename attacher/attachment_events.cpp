#include "attacher/attachment_events.h"

namespace attacher {

void RecordedAttachmentEvents::AttachFailed(const kube::VolumeAttachment& va,
                                            const std::string& message) {
  recorder_.Record(kube::ReferenceTo(va), kube::kEventTypeWarning, kAttachFailedReason, message);
}

void RecordedAttachmentEvents::DetachFailed(const kube::VolumeAttachment& va,
                                            const std::string& message) {
  recorder_.Record(kube::ReferenceTo(va), kube::kEventTypeWarning, kDetachFailedReason, message);
}

}  // namespace attacher
