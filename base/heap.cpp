#include "base/heap.h"

#include <malloc.h>

#include <cstdlib>
#include <string_view>

namespace base {

void ReleaseFreeHeapMemory() { malloc_trim(0); }

std::optional<int> MallocArenaLimit(const char* glibc_tunables) {
  if (glibc_tunables != nullptr &&
      std::string_view(glibc_tunables).find("glibc.malloc.arena_max") != std::string_view::npos) {
    return std::nullopt;
  }
  return kMallocArenaMax;
}

void LimitMallocArenas() {
  if (std::optional<int> limit = MallocArenaLimit(std::getenv("GLIBC_TUNABLES"))) {
    mallopt(M_ARENA_MAX, *limit);
  }
}

}  // namespace base
