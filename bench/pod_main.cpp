// pod-bench: runs one benchmark cell of one driver's controller Pod (see
// runner.h, pod_stack.h) and appends its figures to a CSV;
// scripts/bench.sh --stack=pod loops over cells and bench-report turns the
// CSV into the markdown table.
#include "bench/bench_main.h"
#include "bench/pod_stack.h"

int main(int argc, char** argv) {
  return bench::BenchMain(argc, argv, "pod-bench", bench::MakePodStack);
}
