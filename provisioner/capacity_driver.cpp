#include "provisioner/capacity_driver.h"

namespace provisioner {

base::Result<ReportedCapacity> CsiCapacityDriver::GetCapacity(const kube::StringMap& parameters,
                                                              const TopologyTerm& segment) {
  csi::v1::GetCapacityRequest request;
  for (const auto& [key, value] : parameters) (*request.mutable_parameters())[key] = value;
  auto& segments = *request.mutable_accessible_topology()->mutable_segments();
  for (const auto& [key, value] : segment) segments[key] = value;
  auto response = controller_.GetCapacity(request, {.timeout = timeout_});
  if (!response.ok()) return response.error();
  ReportedCapacity reported{.available_bytes = response->available_capacity(),
                            .maximum_volume_size = std::nullopt};
  if (response->has_maximum_volume_size()) {
    reported.maximum_volume_size = response->maximum_volume_size().value();
  }
  return reported;
}

}  // namespace provisioner
