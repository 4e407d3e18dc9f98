// WaitFor: polls a probe every 250 ms until it passes, the peer's process
// exits, or the timeout passes. A failure names the peer and what we waited
// for, says how long we waited (and the last probe error, or the exit status),
// and ends with the last 20 lines of the peer's log, so a test failure explains
// itself without digging through the work directory.
#pragma once

#include <chrono>
#include <functional>
#include <string_view>

#include "base/result.h"
#include "tests/support/process.h"

namespace testsupport {

inline constexpr std::chrono::milliseconds kPollInterval{250};
inline constexpr int kLogTailLines = 20;

// `goal` completes "waiting for ...", e.g. "/readyz to answer ok".
base::Status WaitFor(std::string_view peer, std::string_view goal, Process& process,
                     std::chrono::milliseconds timeout, const std::function<base::Status()>& probe);

// "<peer>'s log <path> ends with:\n<last lines>", for error messages.
std::string DescribeLogTail(std::string_view peer, const Process& process);

}  // namespace testsupport
