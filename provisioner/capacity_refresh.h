// CapacityRefresh: what the claim and volume controllers tell capacity
// tracking after each attempt (docs/provisioner.md §5 "Triggers"), so a
// published capacity follows a volume's creation or deletion instead of
// waiting for the next poll. The calls only queue work; they never block.
#pragma once

#include <string>

#include "kube/api/core/v1/persistent_volume.h"

namespace provisioner {

class CapacityRefresh {
 public:
  virtual ~CapacityRefresh() = default;
  // The driver made `volume` for a claim of `class_name`.
  virtual void VolumeCreated(const kube::PersistentVolume& volume,
                             const std::string& class_name) = 0;
  // CreateVolume of a claim of `class_name` failed after it reached the
  // driver (any state but no-change).
  virtual void ProvisionFailed(const std::string& class_name) = 0;
  // The driver deleted `volume`.
  virtual void VolumeDeleted(const kube::PersistentVolume& volume) = 0;
};

}  // namespace provisioner
