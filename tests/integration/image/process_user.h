// The real user id of a running process, from /proc/<pid>/status: how the
// image tests show that a binary runs as the image's user, not as root.
#pragma once

#include <sys/types.h>

#include <optional>

namespace image_it {

inline constexpr int kImageUser = 65532;  // the Dockerfile's USER

// nullopt once the process is gone.
std::optional<int> RealUserOf(pid_t pid);

}  // namespace image_it
