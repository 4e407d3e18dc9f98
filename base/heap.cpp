#include "base/heap.h"

#include <malloc.h>

namespace base {

void ReleaseFreeHeapMemory() { malloc_trim(0); }

}  // namespace base
