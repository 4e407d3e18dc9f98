// ForEachParallel: runs task(i) for every i in [0, n) on `threads` threads.
// The load generator uses it to create and delete thousands of objects; one
// request at a time would make populating 20000 objects take an hour.
#pragma once

#include <cstddef>
#include <functional>

#include "base/result.h"

namespace bench {

// Every index runs even after a failure; returns the first failure, if any.
base::Status ForEachParallel(size_t n, int threads,
                             const std::function<base::Status(size_t)>& task);

}  // namespace bench
