#include "bench/parallel.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace bench {

base::Status ForEachParallel(size_t n, int threads,
                             const std::function<base::Status(size_t)>& task) {
  std::atomic<size_t> next{0};
  std::mutex mu;
  base::Status first;  // guarded by mu
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) {
      auto status = task(i);
      if (status.ok()) continue;
      std::lock_guard lock(mu);
      if (first.ok()) first = status;
    }
  };
  std::vector<std::jthread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  pool.clear();  // joins
  return first;
}

}  // namespace bench
