#include "attacher/event_filters.h"

#include <algorithm>

#include "attacher/names.h"
#include "kube/runtime/update_filter.h"
#include "migration/translate.h"

namespace attacher {

bool ShouldEnqueueVolumeAttachmentUpdate(const kube::VolumeAttachment& old_va,
                                         const kube::VolumeAttachment& new_va) {
  return kube::UpdateNeedsSync(
      old_va, new_va, [](const kube::VolumeAttachment& old, kube::VolumeAttachment& masked) {
        masked.status.attach_error = old.status.attach_error;
        masked.status.detach_error = old.status.detach_error;
      });
}

kube::WorkQueue::Lane VolumeAttachmentLane(const kube::VolumeAttachment& va) {
  bool awaits_attach = va.metadata.deletion_timestamp.empty() && !va.status.attached;
  return awaits_attach ? kube::WorkQueue::Lane::kUrgent : kube::WorkQueue::Lane::kNormal;
}

const std::optional<std::string>& PersistentVolumeToSyncOnDelete(
    const kube::VolumeAttachment& deleted_va) {
  return deleted_va.spec.source.persistent_volume_name;
}

bool IsMigrationRollback(const kube::PersistentVolume& pv, std::string_view driver) {
  if (!migration::IsPvMigratable(pv)) return false;
  auto migrated_to = pv.metadata.annotations.find(kMigratedToAnnotation);
  return migrated_to == pv.metadata.annotations.end() || migrated_to->second != driver;
}

bool ShouldEnqueuePersistentVolume(const kube::PersistentVolume& pv, std::string_view finalizer,
                                   std::string_view driver) {
  const auto& finalizers = pv.metadata.finalizers;
  bool has_finalizer =
      std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
  return has_finalizer &&
         (!pv.metadata.deletion_timestamp.empty() || IsMigrationRollback(pv, driver));
}

}  // namespace attacher
