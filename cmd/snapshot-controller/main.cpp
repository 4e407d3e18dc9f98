// snapshot-controller: the cluster-wide half of the CSI external-snapshotter. All logic is in
// run.cpp.
#include "base/heap.h"
#include "base/scheduling.h"
#include "cmd/snapshot-controller/run.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();      // before any thread: docs/design.md §5.1
  base::PreferBatchScheduling();  // before any thread, so all inherit it: docs/design.md §5
  return snapshotcontroller::Run(argc, argv);
}
