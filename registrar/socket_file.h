// The registration socket's file (docs/node-sidecars.md §3.2 step 7, §3.5): what
// is at its path, and the clean-up before listening. Messages are upstream's
// (pkg/util). Stateless functions, safe from any thread.
#pragma once

#include <string>

#include "base/result.h"

namespace registrar {

// "<dir>/<driver>-reg.sock": a plain join, the driver name used as it is.
std::string RegistrationSocketPath(const std::string& dir, const std::string& driver_name);

// True for a socket, false when nothing is there; an error when something
// else is ("file exists in socketPath <p> but it's not a socket.: ...") or the
// path cannot be read.
base::Result<bool> SocketExists(const std::string& path);

// Removes a socket left at `path` by an earlier run; the errors of
// SocketExists, or "failed to remove stale socket <p> with error: ...".
base::Status RemoveStaleSocket(const std::string& path);

// Removes `path`; nothing there is no error (the SIGTERM clean-up).
base::Status RemoveSocket(const std::string& path);

}  // namespace registrar
