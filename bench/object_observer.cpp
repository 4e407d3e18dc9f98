#include "bench/object_observer.h"

#include <thread>

namespace bench {

base::Status WaitForCount(const std::function<size_t()>& count, size_t total,
                          const std::string& what, std::chrono::seconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (size_t seen = count(); seen < total; seen = count()) {
    if (Clock::now() >= deadline) {
      return base::Error("timed out: " + std::to_string(seen) + " of " + std::to_string(total) +
                         " " + what);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

}  // namespace bench
