#include "attacher/attachment_events.h"

namespace attacher {
namespace {

// The involvedObject naming `va`.
kube::ObjectReference ReferenceTo(const kube::VolumeAttachment& va) {
  kube::ObjectReference ref;
  ref.kind = std::string(kube::VolumeAttachment::kKind);
  ref.api_version = std::string(kube::VolumeAttachment::kApiVersion);
  ref.name = va.metadata.name;
  ref.uid = va.metadata.uid;
  ref.resource_version = va.metadata.resource_version;
  return ref;
}

}  // namespace

void RecordedAttachmentEvents::AttachFailed(const kube::VolumeAttachment& va,
                                            const std::string& message) {
  recorder_.Record(ReferenceTo(va), kube::kEventTypeWarning, kAttachFailedReason, message);
}

void RecordedAttachmentEvents::DetachFailed(const kube::VolumeAttachment& va,
                                            const std::string& message) {
  recorder_.Record(ReferenceTo(va), kube::kEventTypeWarning, kDetachFailedReason, message);
}

}  // namespace attacher
