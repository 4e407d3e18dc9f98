// ContentHandler: what the sidecar's content controller calls for each queued
// VolumeSnapshotContent of its driver (docs/snapshots.md §3.4): create the
// snapshot, check an imported one, or delete it, and record the result on the
// content. CsiContentHandler does it with the driver's CSI calls.
//
// SyncContent returns an error to have the content retried with the error
// backoff (start, doubling, capped at --retry-interval-max); kPollReadiness
// when the snapshot exists but is not ready yet, so the controller asks again
// at the readiness cadence (§9.2), which the handler's own writes never
// lengthen; kDone when nothing is left to do until the content changes.
// Implementations are called from many worker threads at once, never twice
// concurrently for the same content.
#pragma once

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

enum class SyncOutcome {
  kDone,
  kPollReadiness,
};

class ContentHandler {
 public:
  virtual ~ContentHandler() = default;
  virtual base::Result<SyncOutcome> SyncContent(const kube::VolumeSnapshotContent& content) = 0;
};

}  // namespace snapshotter
