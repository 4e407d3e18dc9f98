#include "bench/stack.h"

namespace bench {

base::Status CheckOneBinaryContenders(const BenchOptions& options, const std::string& component) {
  for (const auto& kind : options.contenders) {
    if (kind == "mixed") return base::Error("the " + component + " has no mixed contender");
    if (kind == "upstream" && options.upstream_bin.empty()) {
      return base::Error("upstream needs --upstream-bin");
    }
  }
  return {};
}

}  // namespace bench
