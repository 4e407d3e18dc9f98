// Whether a failed CSI call's outcome is known (csi-lib-utils' IsFinalError,
// which every sidecar uses to decide whether the driver may still be at
// work): a gRPC status is final unless it is Canceled, DeadlineExceeded,
// Unavailable, ResourceExhausted or Aborted - the codes of a call cut short
// or to be retried. A failure without a gRPC status (the call may never have
// reached the driver, or its answer was lost) is not final.
#pragma once

#include "base/result.h"

namespace csi {

bool IsFinalError(const base::Error& error);

}  // namespace csi
