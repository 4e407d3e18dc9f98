// Handler: what the controller calls for each queued object. CsiHandler does
// real ControllerPublish/Unpublish; TrivialHandler marks attachments attached
// for drivers that need no attach step (docs/attacher.md §5.6).
//
// Sync* return an error to have the object retried with per-item backoff; a
// nil status means "done, forget the backoff". Implementations are called from
// many worker threads at once, never twice concurrently for the same object.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace attacher {

class Handler {
 public:
  virtual ~Handler() = default;
  virtual base::Status SyncVolumeAttachment(const kube::VolumeAttachment& va) = 0;
  virtual base::Status SyncPersistentVolume(const kube::PersistentVolume& pv) = 0;
  // The reconciler found the driver's state differs from the VA's status: the
  // next sync of `va_name` must call the driver even if status says it is done.
  virtual void RequestForceSync(const std::string& va_name) = 0;
};

}  // namespace attacher
