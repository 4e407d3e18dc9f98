// The writes of one modification (docs/resizer.md §5.4), as strategic merge
// patches of the claim's /status and of the PV: pure functions of the claim
// as read and the clock's `now`, so tests read the exact documents. "With RV"
// carries metadata.resourceVersion, so the API server refuses the patch
// (Conflict) when the claim changed since it was read.
//
// The modify conditions (ModifyingVolume, ModifyVolumeError) are written
// whole and replace those of their type; lastTransitionTime moves to `now`
// only when the condition is new or its status or reason changed, as
// upstream's condition merge does. Other conditions are left alone.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "kube/api/core/v1/persistent_volume_claim.h"

namespace resizer {

// How a ControllerModifyVolume call failed: its gRPC code's name and
// message, and whether the outcome is known (csi::IsFinalError).
struct ModifyFailure {
  std::string code_name;
  std::string message;
  bool final = false;
};

// With RV: modifyVolumeStatus.status = `status`, the target otherwise kept.
// Pending touches nothing else. Any other status sets a ModifyingVolume
// condition: without `failure`, the target becomes the claim's
// spec.volumeAttributesClassName and the message says the modification is
// in progress; with one, the message says it failed (final) or is still in
// progress, and a ModifyVolumeError condition carries the code and message.
std::string MarkModifyStatusPatch(const kube::PersistentVolumeClaim& claim, std::string_view status,
                                  const ModifyFailure* failure,
                                  std::chrono::system_clock::time_point now);

// Without RV, once the driver modified the volume: modifyVolumeStatus
// removed, currentVolumeAttributesClassName = `target`, both modify
// conditions dropped.
std::string MarkModifyFinishedPatch(const kube::PersistentVolumeClaim& claim,
                                    const std::string& target);

// Without RV: drops the ModifyingVolume condition (a modification rolled
// back by clearing the claim's class).
std::string DropModifyingConditionPatch();

// The PV once modified: spec.volumeAttributesClassName = `target`.
std::string VolumeClassPatch(const std::string& target);

}  // namespace resizer
