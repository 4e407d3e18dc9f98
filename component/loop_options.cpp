#include "component/loop_options.h"

#include <algorithm>

namespace component {
namespace {

std::chrono::milliseconds Millis(std::chrono::nanoseconds d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d);
}

}  // namespace

LoopOptions LoopOptionsFrom(int64_t worker_threads, const RetryIntervalOptions& retry,
                            std::chrono::nanoseconds resync_period) {
  return LoopOptions{
      .worker_threads = static_cast<uint32_t>(std::max<int64_t>(worker_threads, 0)),
      .retry_interval_start = Millis(retry.retry_interval_start),
      .retry_interval_max = Millis(retry.retry_interval_max),
      .resync_period = Millis(resync_period),
  };
}

}  // namespace component
