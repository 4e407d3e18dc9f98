#include "resizer/size_choice.h"

#include "base/log.h"
#include "resizer/names.h"

namespace resizer {
namespace {

Size AllocatedOr(const SizeInputs& in, const Size& fallback) {
  return in.allocated ? *in.allocated : fallback;
}

// The PV is still smaller than the request.
std::optional<Size> WhilePvSmaller(const SizeInputs& in) {
  const std::string& st = in.allocated_status;
  if (st == kNodeResizeInfeasible) return AllocatedOr(in, in.requested);
  if (st == kNodeResizePending || st == kNodeResizeInProgress) {
    Size size = AllocatedOr(in, in.requested);
    if (in.pv_bytes >= size.bytes) return std::nullopt;  // kubelet's turn
    return size;
  }
  if (st == kControllerResizeInProgress) {
    // A final error means the driver is not working on the old size: the
    // user's (maybe lowered) request is tried.
    if (in.saw_final_error) return in.requested;
    return AllocatedOr(in, in.requested);
  }
  return in.requested;
}

// The PV already holds the request: only a pending state is finished.
std::optional<Size> WhilePvLargeEnough(const SizeInputs& in) {
  const std::string& st = in.allocated_status;
  if (st == kNodeResizePending || st == kNodeResizeInProgress) return std::nullopt;
  if (st == kNodeResizeInfeasible) {
    return in.controller_expands ? AllocatedOr(in, in.requested) : in.requested;
  }
  if (st == kControllerResizeInProgress || st == kControllerResizeInfeasible) {
    return AllocatedOr(in, in.requested);
  }
  if (st.empty() && in.allocated) return *in.allocated;
  LOG_WARNING(
      "external-resizer may be running with older version of kubernetes api-server, please "
      "upgrade to k8s version 1.32");
  if (in.file_system_resize_pending) return std::nullopt;
  return in.requested;
}

}  // namespace

std::optional<Size> ChooseSize(const SizeInputs& in) {
  return in.pv_bytes < in.requested.bytes ? WhilePvSmaller(in) : WhilePvLargeEnough(in);
}

}  // namespace resizer
