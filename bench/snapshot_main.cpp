// snapshot-bench: runs one benchmark cell of the snapshot pair,
// snapshot-controller + csi-snapshotter (see runner.h, snapshot_stack.h), and
// appends its figures to a CSV; scripts/bench.sh --stack=snapshot loops over
// cells and bench-report turns the CSV into the markdown table.
#include "bench/bench_main.h"
#include "bench/snapshot_stack.h"

int main(int argc, char** argv) {
  return bench::BenchMain(argc, argv, "snapshot-bench", bench::MakeSnapshotStack);
}
