// PickFreeLoopbackPort: a TCP port on 127.0.0.1 that was free a moment ago
// (the kernel's pick for a bind to port 0). Another process can take it before
// our peer binds it, so callers retry a start that fails.
#pragma once

#include "base/result.h"

namespace testsupport {

base::Result<int> PickFreeLoopbackPort();

}  // namespace testsupport
