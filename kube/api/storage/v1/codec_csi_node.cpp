#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNotEmpty;
using codec_internal::ReadField;
using codec_internal::ReadPath;

void from_json(const nlohmann::json& j, CSINode& node) {
  ReadField(j, "metadata", node.metadata);
  ReadPath(j, {"spec", "drivers"}, node.spec.drivers);
}

void to_json(nlohmann::json& j, const CSINode& node) {
  j = codec_internal::NewObjectJson<CSINode>();
  j["metadata"] = node.metadata;
  j["spec"] = {{"drivers", node.spec.drivers}};
}

void from_json(const nlohmann::json& j, CSINodeDriver& driver) {
  ReadField(j, "name", driver.name);
  ReadField(j, "nodeID", driver.node_id);
  ReadField(j, "topologyKeys", driver.topology_keys);
  ReadPath(j, {"allocatable", "count"}, driver.allocatable_count);
}

void to_json(nlohmann::json& j, const CSINodeDriver& driver) {
  j = {{"name", driver.name}, {"nodeID", driver.node_id}};
  PutIfNotEmpty(j, "topologyKeys", driver.topology_keys);
  if (driver.allocatable_count) j["allocatable"] = {{"count", *driver.allocatable_count}};
}

}  // namespace kube
