// ContentCreation: createSnapshotContent, the content of a dynamic
// VolumeSnapshot that has none yet (docs/snapshots.md §4.3
// syncUnreadySnapshot): the source claim's pvc-as-source-protection
// finalizer first (ClaimFinalizer), then the content built from the
// snapshot, its class and its source volume (DynamicContentFor,
// with the volume's mode and managing node as the flags ask), its POST and
// the Normal Event CreatingSnapshot. A content that exists already (an
// earlier sync's POST whose answer was lost) counts as created. A failed
// POST is also a Warning CreateSnapshotContentFailed. Errors read as
// upstream's: what is missing to build the content is wrapped as
// CreateInputError, a failed POST reads "snapshot controller
// failed to update <namespace>/<name> on API server: <error>".
//
// Thread-safe: it keeps no state of its own.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/claim_finalizer.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/handler_options.h"

namespace snapshot_controller {

// What upstream's lister says of a class it does not hold.
base::Error SnapshotClassNotFound(const std::string& name);

class ContentCreation {
 public:
  ContentCreation(ControllerApi& api, const Caches& caches, ClaimFinalizer& claim_finalizer,
                  ControllerEvents& events, HandlerOptions options)
      : api_(api),
        caches_(caches),
        claim_finalizer_(claim_finalizer),
        events_(events),
        options_(options) {}

  // The content as the API server answered the POST, or as it was sent when
  // it existed already.
  base::Result<kube::VolumeSnapshotContent> Create(const kube::VolumeSnapshot& snapshot);

 private:
  base::Result<kube::VolumeSnapshotContent> ContentFor(const kube::VolumeSnapshot& snapshot);

  ControllerApi& api_;
  const Caches& caches_;
  ClaimFinalizer& claim_finalizer_;
  ControllerEvents& events_;
  const HandlerOptions options_;
};

}  // namespace snapshot_controller
