// attacher-bench: runs one benchmark cell of the csi-attacher (see runner.h,
// attacher_stack.h) and appends its figures to a CSV; scripts/bench.sh loops
// over cells and bench-report turns the CSV into the markdown table.
#include "bench/attacher_stack.h"
#include "bench/bench_main.h"

int main(int argc, char** argv) {
  return bench::BenchMain(argc, argv, "attacher-bench", bench::MakeAttacherStack);
}
