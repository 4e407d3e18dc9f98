// The CSI node ID a Publish/Unpublish names (docs/attacher.md §5.3 step 4, §5.4):
// CSINode spec.drivers[name == driver].nodeID from the CSINode cache. Attach
// trusts nothing else; detach falls back to the node-id annotation the attach
// saved on the VA, so a volume can be detached from a node whose CSINode is
// gone or no longer lists the driver (external-attacher#83, PR #299).
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/store.h"

namespace attacher {

// `annotated`: the VA whose annotation may stand in (detach), or nullptr
// (attach). Errors: `csinode.storage.k8s.io "<node>" not found` or
// `CSINode <node> does not contain driver <driver>`.
base::Result<std::string> NodeIdOf(const kube::Store<kube::CSINode>& csi_nodes,
                                   std::string_view driver, std::string_view node_name,
                                   const kube::VolumeAttachment* annotated);

}  // namespace attacher
