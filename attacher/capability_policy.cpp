#include "attacher/capability_policy.h"

namespace attacher {

bool CanAttach(const csi::Capabilities& caps) {
  return caps.Has(csi::PluginService::CONTROLLER_SERVICE) &&
         caps.Has(csi::ControllerRpc::PUBLISH_UNPUBLISH_VOLUME);
}

bool CanReconcile(const csi::Capabilities& caps) {
  return caps.Has(csi::ControllerRpc::LIST_VOLUMES) &&
         caps.Has(csi::ControllerRpc::LIST_VOLUMES_PUBLISHED_NODES);
}

}  // namespace attacher
