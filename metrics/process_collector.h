// The process_* metrics of client_golang's process collector, read from
// /proc at scrape time (Linux only): CPU seconds, open and maximum file
// descriptors, virtual and resident memory, the address-space limit, and the
// start time (ALPHA, as component-base registers it).
#pragma once

#include "metrics/registry.h"

namespace metrics {

// Registers the process families in `registry`, which owns them for its
// whole life. Call at most once per registry.
void RegisterProcessCollector(Registry& registry);

}  // namespace metrics
