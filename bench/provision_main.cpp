// provision-bench: runs one benchmark cell of the csi-provisioner (see
// runner.h, provision_stack.h) and appends its figures to a CSV;
// scripts/bench.sh --stack=provisioner loops over cells and bench-report
// turns the CSV into the markdown table.
#include "bench/bench_main.h"
#include "bench/provision_stack.h"

int main(int argc, char** argv) {
  return bench::BenchMain(argc, argv, "provision-bench", bench::MakeProvisionStack);
}
