// ReleaseFreeHeapMemory: hands the free pages inside the malloc heap back to
// the system (glibc's malloc_trim). Memory freed between live blocks - the
// transient part of filling a cache from a large list, interleaved with the
// objects the cache keeps - otherwise stays resident until malloc happens to
// reuse it. It walks every malloc arena (about 3 ms for a 200 MB heap), so it
// belongs after rare, large transient peaks, never on a hot path. Thread-safe.
#pragma once

namespace base {

void ReleaseFreeHeapMemory();

}  // namespace base
