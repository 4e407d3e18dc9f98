// What the driver's advertised capabilities (csi/capabilities.h) mean for the
// attacher: which handler it runs and whether the reconciler runs
// (docs/attacher.md §2 "Capabilities", §5.6, §5.7).
#pragma once

#include "csi/capabilities.h"

namespace attacher {

// The CSI handler is used: the plugin serves CONTROLLER_SERVICE with
// PUBLISH_UNPUBLISH_VOLUME. Otherwise the trivial one marks VolumeAttachments
// attached without calling the driver.
bool CanAttach(const csi::Capabilities& caps);

// The ListVolumes reconciler can run: LIST_VOLUMES with
// LIST_VOLUMES_PUBLISHED_NODES, so it learns where each volume is published.
// It runs only with the CSI handler, whose syncs it forces.
bool CanReconcile(const csi::Capabilities& caps);

}  // namespace attacher
