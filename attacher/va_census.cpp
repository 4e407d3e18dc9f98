#include "attacher/va_census.h"

#include <algorithm>

#include "kube/api/meta_time.h"
#include "kube/api/metadata_patch.h"

namespace attacher {

VolumeAttachmentCensus TakeVolumeAttachmentCensus(
    const std::vector<kube::Store<kube::VolumeAttachment>::Ptr>& attachments,
    std::string_view driver, std::string_view finalizer,
    std::chrono::system_clock::time_point now) {
  VolumeAttachmentCensus census;
  for (const auto& va : attachments) {
    if (va->spec.attacher != driver) continue;
    const kube::ObjectMeta& meta = va->metadata;
    const kube::MetaTime* pending_since;
    if (meta.deletion_timestamp.empty()) {
      if (va->status.attached) {
        ++census.attached;
        continue;
      }
      ++(va->status.attach_error ? census.failed : census.attaching);
      pending_since = &meta.creation_timestamp;
    } else {
      if (!kube::HasFinalizer(meta, finalizer)) continue;
      ++(va->status.detach_error ? census.failed : census.detaching);
      pending_since = &meta.deletion_timestamp;
    }
    if (!pending_since->empty()) {
      auto since = std::chrono::system_clock::from_time_t(pending_since->unix_seconds());
      double age = std::chrono::duration<double>(now - since).count();
      census.oldest_pending_seconds = std::max(census.oldest_pending_seconds, age);
    }
  }
  return census;
}

}  // namespace attacher
