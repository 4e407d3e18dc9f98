// What the image tests read of a running process in /proc: its real user
// (a binary runs as the image's user, not as root) and its threads'
// scheduling policies (docs/design.md §5: SCHED_BATCH without privilege).
#pragma once

#include <sys/types.h>

#include <optional>
#include <set>

namespace image_it {

inline constexpr int kImageUser = 65532;  // the Dockerfile's USER

// nullopt once the process is gone.
std::optional<int> RealUserOf(pid_t pid);

// The distinct policies (SCHED_OTHER, SCHED_BATCH, ...) of the process's
// threads; empty once it is gone.
std::set<int> ThreadPoliciesOf(pid_t pid);

}  // namespace image_it
