// The exit codes of every binary, as upstream's Go binaries use them:
//   0  --help, --version, and a graceful stop (first SIGTERM/SIGINT), even
//      during start-up;
//   1  anything found wrong after the flags parsed, a lost CSI connection
//      (after writing the termination message), a lost Lease, a second signal;
//   2  command-line mistakes (base::kExitUsageError, Go's flag rules);
//   255 where upstream calls klog.Fatal (the csi-snapshotter's bad feature
//      gates, missing NODE_NAME and an HTTP address it cannot listen on):
//      an "F" line, without Go's goroutine dump.
// Start-up steps log why they fail and hand the code up instead of exiting,
// so tests can drive a binary's Run in-process; only the three asynchronous
// endings of exit 1 end the process directly.
#pragma once

#include <string_view>

#include "base/result.h"

namespace component {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitFatal = 255;

// Logs `message` at error level (with `error` as "err") and returns kExitFailure.
int Fail(std::string_view message);
int Fail(std::string_view message, const base::Error& error);

// Logs `message` at fatal severity and returns kExitFatal.
int FailFatally(std::string_view message);

// Logs that a stop was requested during start-up `step` and returns kExitSuccess.
int StoppedDuringStartup(std::string_view step);

}  // namespace component
