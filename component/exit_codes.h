// The exit codes of every binary, as upstream's Go binaries use them:
//   0  --help, --version, and a graceful stop (first SIGTERM/SIGINT), even
//      during start-up;
//   1  anything found wrong after the flags parsed, a lost CSI connection
//      (after writing the termination message), a lost Lease, a second signal;
//   2  command-line mistakes (base::kExitUsageError, Go's flag rules).
// Start-up steps log why they fail and hand the code up instead of exiting,
// so tests can drive a binary's Run in-process; only the three asynchronous
// endings of exit 1 end the process directly.
#pragma once

#include <string_view>

#include "base/result.h"

namespace component {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;

// Logs `message` at error level (with `error` as "err") and returns kExitFailure.
int Fail(std::string_view message);
int Fail(std::string_view message, const base::Error& error);

// Logs that a stop was requested during start-up `step` and returns kExitSuccess.
int StoppedDuringStartup(std::string_view step);

}  // namespace component
