#include "provisioner/node_room.h"

#include <optional>
#include <vector>

#include "base/quantity.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

// The GetCapacity requests of a prepared CreateVolume request: one per
// requisite topology, or one without a topology.
std::vector<csi::v1::GetCapacityRequest> CapacityRequestsOf(
    const csi::v1::CreateVolumeRequest& create) {
  csi::v1::GetCapacityRequest common;
  *common.mutable_volume_capabilities() = create.volume_capabilities();
  *common.mutable_parameters() = create.parameters();
  const auto& requisite = create.accessibility_requirements().requisite();
  if (requisite.empty()) return {common};
  std::vector<csi::v1::GetCapacityRequest> requests;
  for (const csi::v1::Topology& topology : requisite) {
    csi::v1::GetCapacityRequest& request = requests.emplace_back(common);
    *request.mutable_accessible_topology() = topology;
  }
  return requests;
}

}  // namespace

base::Result<bool> HasRoomOnNode(const ProvisioningContext& context,
                                 const kube::PersistentVolumeClaim& claim,
                                 const kube::StorageClass& storage_class,
                                 const std::string& node_name) {
  base::Result<int64_t> wanted = base::QuantityAsInt64(
      claim.spec.requests_storage.empty() ? "0" : claim.spec.requests_storage);
  if (!wanted.ok()) return wanted.error();
  if (*wanted == 0) return true;
  kube::PersistentVolumeClaim placed = claim;
  placed.metadata.annotations[kSelectedNodeAnnotation] = node_name;
  PrepareResult prepared = PrepareVolume(context, placed, storage_class);
  // The check is not a provisioning attempt: what it computed for the
  // claim's topology is not kept for the attempt that may follow.
  if (context.topology) context.topology->memo.Forget(claim.metadata.uid.str());
  if (auto* failure = std::get_if<ProvisionFailure>(&prepared)) return failure->error;
  if (std::holds_alternative<LeftToPopulator>(prepared)) {
    return base::Error("the claim's data source is left to a populator");
  }
  for (const auto& request :
       CapacityRequestsOf(std::get<PreparedVolume>(prepared).request.request)) {
    base::Result<int64_t> available = context.driver.GetCapacity(request);
    if (!available.ok()) return available.error().Wrap("GetCapacity");
    if (*wanted <= *available) return true;
  }
  return false;
}

}  // namespace provisioner
