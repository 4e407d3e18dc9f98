#include "attacher/node_id.h"

#include "attacher/names.h"

namespace attacher {

base::Result<std::string> NodeIdOf(const kube::Store<kube::CSINode>& csi_nodes,
                                   std::string_view driver, std::string_view node_name,
                                   const kube::VolumeAttachment* annotated) {
  base::Error error;
  if (auto node = csi_nodes.Get("", node_name); node == nullptr) {
    // The text of a Go lister's NotFound error.
    error = base::Error("csinode.storage.k8s.io \"" + std::string(node_name) + "\" not found");
  } else if (const kube::CSINodeDriver* entry = node->spec.FindDriver(driver)) {
    return entry->node_id;
  } else {
    error = base::Error("CSINode " + std::string(node_name) + " does not contain driver " +
                        std::string(driver));
  }
  if (annotated != nullptr) {
    const kube::StringMap& annotations = annotated->metadata.annotations;
    if (auto it = annotations.find(kNodeIdAnnotation); it != annotations.end()) return it->second;
  }
  return error;
}

}  // namespace attacher
