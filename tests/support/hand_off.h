// How long a unit test waits, in real time, for another thread to act on what
// it was handed: generous, so only a hang (a bug) ever reaches it.
#pragma once

#include <chrono>

namespace testsupport {

inline constexpr std::chrono::seconds kHandOffTimeout{5};

}  // namespace testsupport
