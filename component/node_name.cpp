#include "component/node_name.h"

#include <cstdlib>

namespace component {

base::Status ReadNodeName(bool node_deployment, std::string& node_name) {
  if (!node_deployment) return base::Status::Ok();
  if (const char* node = std::getenv("NODE_NAME"); node && *node) node_name = node;
  if (!node_name.empty()) return base::Status::Ok();
  return base::Error(
      "The NODE_NAME environment variable must be set when using --enable-node-deployment.");
}

}  // namespace component
