#include "base/scheduling.h"

#include <sched.h>

namespace base {

int PreferBatchScheduling() {
  const int policy = sched_getscheduler(0);
  if (policy != SCHED_OTHER) return policy;
  sched_param param{};  // SCHED_BATCH takes priority 0, and no privilege
  if (sched_setscheduler(0, SCHED_BATCH, &param) != 0) return policy;
  return SCHED_BATCH;
}

}  // namespace base
