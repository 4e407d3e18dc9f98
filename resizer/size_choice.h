// ChooseSize: the size the driver is asked for (docs/resizer.md §4.3), from
// the PV's size, the claim's request, what the last expansion allocated and
// its state - the recovery state machine of KEP-1790. After a failure the
// user may lower the request to any value above status.capacity, and the
// driver is asked for that instead; while the node finishes an expansion
// nothing is asked at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace resizer {

// A resource.Quantity: its text as the user wrote it, and its bytes.
struct Size {
  std::string text;
  int64_t bytes = 0;

  bool operator==(const Size&) const = default;
};

struct SizeInputs {
  int64_t pv_bytes = 0;                // the PV's spec.capacity
  Size requested;                      // the claim's spec.resources.requests
  std::optional<Size> allocated = {};  // status.allocatedResources, when set
  std::string allocated_status = {};   // status.allocatedResourceStatuses; "" = unset
  // This process saw a final (not in-progress) error expanding the claim.
  bool saw_final_error = false;
  // The driver expands in the controller (not node-only).
  bool controller_expands = true;
  // The claim has a True FileSystemResizePending condition.
  bool file_system_resize_pending = false;
};

// nullopt: ask nothing now (the node has work to finish first).
std::optional<Size> ChooseSize(const SizeInputs& in);

}  // namespace resizer
