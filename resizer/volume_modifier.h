// VolumeModifier: how the modify controller applies a VolumeAttributesClass
// to a volume (docs/resizer.md §5.3): CsiVolumeModifier calls
// ControllerModifyVolume {volume_id, secrets, mutable_parameters} under
// --modify-timeout, for a driver with the MODIFY_VOLUME controller
// capability. A PV without spec.csi or without a volume handle is an error
// before any call; a failed call keeps its gRPC code (csi/errors.h).
#pragma once

#include <chrono>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/controller_client.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/string_map.h"

namespace resizer {

class VolumeModifier {
 public:
  virtual ~VolumeModifier() = default;
  virtual base::Status Modify(const kube::PersistentVolume& volume,
                              const kube::StringMap& mutable_parameters,
                              const kube::StringMap& secrets) = 0;
};

class CsiVolumeModifier final : public VolumeModifier {
 public:
  CsiVolumeModifier(csi::Connection& connection, std::chrono::nanoseconds timeout)
      : controller_(connection), timeout_(timeout) {}

  base::Status Modify(const kube::PersistentVolume& volume,
                      const kube::StringMap& mutable_parameters,
                      const kube::StringMap& secrets) override;

 private:
  csi::ControllerClient controller_;
  const std::chrono::nanoseconds timeout_;
};

}  // namespace resizer
