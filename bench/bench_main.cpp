#include "bench/bench_main.h"

#include <cstdio>

#include "bench/runner.h"

namespace bench {

int BenchMain(int argc, char** argv, const char* program, const StackFactory& make_stack) {
  auto options = ParseOptions(argc, argv);
  if (!options.ok()) {
    std::fprintf(stderr, "%s: %s\n%s", program, options.error().message.c_str(), Usage());
    return 2;
  }
  auto stack = make_stack(*options);
  if (!stack.ok()) {
    std::fprintf(stderr, "%s: %s\n%s", program, stack.error().message.c_str(), Usage());
    return 2;
  }
  auto status = RunCell(*options, **stack);
  if (!status.ok()) {
    std::fprintf(stderr, "%s: %s\n", program, status.error().message.c_str());
    return 1;
  }
  return 0;
}

}  // namespace bench
