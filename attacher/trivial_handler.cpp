#include "attacher/trivial_handler.h"

#include "attacher/va_status.h"
#include "base/log.h"

namespace attacher {

base::Status TrivialHandler::SyncVolumeAttachment(const kube::VolumeAttachment& va) {
  if (va.status.attached || !va.metadata.deletion_timestamp.empty()) return base::Status::Ok();
  // Never empty: `attached` changes.
  std::string patch = MarkAttachedPatch(va, /*publish_context=*/{});
  auto marked = api_.PatchVolumeAttachment(va.metadata.name, kube::PatchType::kMerge, patch,
                                           /*status=*/true);
  if (!marked.ok()) return marked.error().Wrap("failed to mark as attached");
  LOG_V(2, "Marked VolumeAttachment as attached")
      .With("VolumeAttachment", va.metadata.name)
      .With("driver", driver_name_);
  return base::Status::Ok();
}

}  // namespace attacher
