#include "kube/api/meta_time.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace kube {

std::string FormatMetaTime(std::chrono::system_clock::time_point time) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(time)));
}

}  // namespace kube
