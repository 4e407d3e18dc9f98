// VolumeAttachmentCensus: the backlog of one driver's VolumeAttachments as
// the #706 gauges report it (beyond upstream; README "Metrics"). For VAs whose
// spec.attacher is the driver:
//   - no deletionTimestamp: "attached" when status.attached, else "failed"
//     when status.attachError is set, else "attaching"; pending since
//     creationTimestamp unless attached;
//   - deletionTimestamp and our finalizer: "failed" when status.detachError
//     is set, else "detaching"; pending since deletionTimestamp;
//   - deletionTimestamp without our finalizer: nothing left to do, not counted.
// Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/store.h"

namespace attacher {

struct VolumeAttachmentCensus {
  double attached = 0;
  double attaching = 0;
  double detaching = 0;
  double failed = 0;
  // Age of the oldest pending VA; 0 when none is pending.
  double oldest_pending_seconds = 0;
};

VolumeAttachmentCensus TakeVolumeAttachmentCensus(
    const std::vector<kube::Store<kube::VolumeAttachment>::Ptr>& attachments,
    std::string_view driver, std::string_view finalizer, std::chrono::system_clock::time_point now);

}  // namespace attacher
