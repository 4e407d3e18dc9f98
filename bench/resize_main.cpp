// resize-bench: runs one benchmark cell of the csi-resizer (see runner.h,
// resize_stack.h) and appends its figures to a CSV; scripts/bench.sh
// --stack=resizer loops over cells and bench-report turns the CSV into the
// markdown table.
#include "bench/bench_main.h"
#include "bench/resize_stack.h"

int main(int argc, char** argv) {
  return bench::BenchMain(argc, argv, "resize-bench", bench::MakeResizeStack);
}
