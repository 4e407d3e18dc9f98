// The process's malloc heap (glibc).
//
// ReleaseFreeHeapMemory: hands the free pages inside the malloc heap back to
// the system (glibc's malloc_trim). Memory freed between live blocks - the
// transient part of filling a cache from a large list, interleaved with the
// objects the cache keeps - otherwise stays resident until malloc happens to
// reuse it. It walks every malloc arena (about 3 ms for a 200 MB heap), so it
// belongs after rare, large transient peaks, never on a hot path. Thread-safe.
//
// LimitMallocArenas: caps the number of malloc arenas (docs/design.md §5.1),
// unless the operator set glibc.malloc.arena_max in GLIBC_TUNABLES. Called by
// each shipped binary's main() before any thread starts.
#pragma once

#include <optional>

namespace base {

void ReleaseFreeHeapMemory();

// The shipped binaries' arena cap (docs/design.md §5.1).
inline constexpr int kMallocArenaMax = 2;

// The cap LimitMallocArenas applies for this GLIBC_TUNABLES value (null when
// unset): none when the operator chose one there.
std::optional<int> MallocArenaLimit(const char* glibc_tunables);

void LimitMallocArenas();

}  // namespace base
