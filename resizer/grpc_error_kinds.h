// How the resize controller classes a failed expansion (docs/resizer.md
// §4.4 step 5), by its gRPC code as upstream does:
//   - kInProgress: not a gRPC status, or Canceled, DeadlineExceeded,
//     Unavailable, ResourceExhausted, Aborted - the driver may still be
//     working on it;
//   - kInfeasible: InvalidArgument, OutOfRange, NotFound - final, and asking
//     again for the same size will not help;
//   - kFinal: every other code.
#pragma once

#include "base/result.h"

namespace resizer {

enum class GrpcErrorKind { kInProgress, kInfeasible, kFinal };

GrpcErrorKind KindOf(const base::Error& error);

}  // namespace resizer
