// attacher-bench: runs one benchmark cell (see runner.h) and appends its
// figures to a CSV; scripts/bench.sh loops over cells and bench-report turns
// the CSV into the markdown table.
#include <cstdio>

#include "bench/options.h"
#include "bench/runner.h"

int main(int argc, char** argv) {
  auto options = bench::ParseOptions(argc, argv);
  if (!options.ok()) {
    std::fprintf(stderr, "attacher-bench: %s\n%s", options.error().message.c_str(), bench::Usage());
    return 2;
  }
  auto status = bench::RunCell(*options);
  if (!status.ok()) {
    std::fprintf(stderr, "attacher-bench: %s\n", status.error().message.c_str());
    return 1;
  }
  return 0;
}
