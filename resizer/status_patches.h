// The writes of one expansion (docs/resizer.md §4.4), as strategic merge
// patches: of the claim's /status (conditions, allocatedResources,
// allocatedResourceStatuses, and the node-expansion-not-required annotation,
// which upstream also writes through /status) and of the PV. Pure functions
// of the claim as cached and the clock's `now`, so tests read the exact
// documents. A patch "with RV" carries metadata.resourceVersion, so the API
// server refuses it (Conflict) when the claim changed since it was read.
//
// Resize conditions (names.h IsResizeCondition) are merged as upstream
// does: the new condition replaces one of its type; the other resize
// conditions are dropped ("$patch": "delete") unless kept; every other
// condition is left as it is.
#pragma once

#include <chrono>
#include <string>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "resizer/size_choice.h"

namespace resizer {

using TimePoint = std::chrono::system_clock::time_point;

// Step 1, with RV: Resizing True; allocatedResources = `size`; the
// annotation removed. `new_state` (the size differs from the allocated one)
// also drops the other resize conditions and sets the state
// ControllerResizeInProgress.
std::string MarkResizingPatch(const kube::PersistentVolumeClaim& claim, const Size& size,
                              bool new_state, TimePoint now);

// A final error, without RV: ControllerResizeError True "failed to expand
// pvc with <error>", other conditions kept; `infeasible` also sets the state
// ControllerResizeInfeasible.
std::string MarkControllerErrorPatch(const kube::PersistentVolumeClaim& claim,
                                     const std::string& error, bool infeasible, TimePoint now);

// Success, the node still to expand, with RV: FileSystemResizePending True,
// other conditions kept; state NodeResizePending; the annotation removed.
std::string MarkNodeExpansionPendingPatch(const kube::PersistentVolumeClaim& claim, TimePoint now);

// Success, nothing left for the node, with RV: status.capacity =
// `capacity`; every resize condition and the storage state dropped; the
// annotation node-expansion-not-required "true".
std::string MarkExpansionFinishedPatch(const kube::PersistentVolumeClaim& claim,
                                       const std::string& capacity);

// The PV after a successful expansion: spec.capacity.storage = `capacity`
// and, when the node must expand too, pre-resize-capacity = `old_capacity`
// unless the PV has it already.
std::string VolumeCapacityPatch(const std::string& capacity, const std::string* old_capacity);

// Drops the PV's pre-resize-capacity annotation.
std::string DropPreResizeCapacityPatch();

}  // namespace resizer
