// What the driver can do, as far as the attacher cares (BEHAVIOR.md §2, §1.4):
// read with GetPluginCapabilities and, only when the plugin has the
// CONTROLLER_SERVICE capability, ControllerGetCapabilities — both calls
// sharing one deadline, as upstream's main does.
#pragma once

#include <chrono>

#include "base/result.h"
#include "csi/connection.h"

namespace csi {

struct Capabilities {
  bool controller_service = false;            // plugin: CONTROLLER_SERVICE
  bool publish_unpublish = false;             // controller: PUBLISH_UNPUBLISH_VOLUME
  bool publish_readonly = false;              // controller: PUBLISH_READONLY
  bool list_volumes = false;                  // controller: LIST_VOLUMES
  bool list_volumes_published_nodes = false;  // controller: LIST_VOLUMES_PUBLISHED_NODES
  bool single_node_multi_writer = false;      // controller: SINGLE_NODE_MULTI_WRITER

  // The CSI handler is used; otherwise the trivial one (§5.6).
  bool CanAttach() const { return controller_service && publish_unpublish; }
  // The ListVolumes reconciler runs (§5.7).
  bool CanReconcile() const { return list_volumes && list_volumes_published_nodes; }

  bool operator==(const Capabilities&) const = default;
};

base::Result<Capabilities> GetCapabilities(Connection& connection,
                                           std::chrono::nanoseconds timeout);

}  // namespace csi
