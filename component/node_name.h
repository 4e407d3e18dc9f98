// The node a node-deployed sidecar serves (csi-provisioner's and
// csi-snapshotter's --node-deployment): $NODE_NAME, which must be set then.
// The error keeps upstream's words, which name the flag
// --enable-node-deployment that neither binary has.
#pragma once

#include <string>

#include "base/result.h"

namespace component {

// With `node_deployment`, sets `node_name` from $NODE_NAME or fails; else
// leaves it alone.
base::Status ReadNodeName(bool node_deployment, std::string& node_name);

}  // namespace component
