// What a failed provisioning attempt means for the claim's next one
// (docs/provisioner.md §3.8, §3.11), as upstream's ProvisioningState:
//   - kFinished: the outcome is known, nothing runs on the driver;
//   - kInBackground: the driver may still be creating the volume, so the
//     claim is retried even when it is deleted meanwhile;
//   - kNoChange: failed before the driver was asked; whatever the claim's
//     last attempt left stands;
//   - kReschedule: the scheduler should pick another node.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "base/result.h"
#include "csi/proto/csi.pb.h"

namespace provisioner {

enum class ProvisioningState { kFinished, kInBackground, kNoChange, kReschedule };

// A failed attempt: why, and what it means.
struct ProvisionFailure {
  base::Error error;
  ProvisioningState state;
  // An infeasible request (the driver said InvalidArgument, §3.11): retries
  // are delayed.
  bool infeasible = false;
  // The accessibility requirements the failed CreateVolume carried (§9.8).
  std::optional<csi::v1::TopologyRequirement> sent_topology = std::nullopt;
};

}  // namespace provisioner
