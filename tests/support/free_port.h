// PickFreeLoopbackPort: a TCP port on 127.0.0.1 that was free a moment ago
// (the kernel's pick for a bind to port 0). Another process can take it before
// our peer binds it, so callers retry a start that fails that way.
#pragma once

#include "base/result.h"
#include "tests/support/process.h"

namespace testsupport {

base::Result<int> PickFreeLoopbackPort();

// Whether `peer` has exited because an address it was to listen on was taken
// (its log says so, as Go's net package words it): a retry on fresh ports may
// succeed where any other early exit would fail again.
bool ExitedOnPortConflict(Process& peer);

}  // namespace testsupport
