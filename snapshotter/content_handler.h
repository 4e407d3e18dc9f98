// ContentHandlerOf<T>: what the sidecar's controller of one content kind
// calls for each queued content of its driver: create the snapshot, check an
// imported one, or delete it, and record the result on the content.
//   - ContentHandler (VolumeSnapshotContent, docs/snapshots.md §3.4):
//     CsiContentHandler does it with the driver's Controller calls;
//   - GroupContentHandler (VolumeGroupSnapshotContent, §3.8):
//     CsiGroupContentHandler does it with its GroupController calls.
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
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

enum class SyncOutcome {
  kDone,
  kPollReadiness,
};

template <class Content>
class ContentHandlerOf {
 public:
  virtual ~ContentHandlerOf() = default;
  virtual base::Result<SyncOutcome> SyncContent(const Content& content) = 0;
};

using ContentHandler = ContentHandlerOf<kube::VolumeSnapshotContent>;
using GroupContentHandler = ContentHandlerOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
