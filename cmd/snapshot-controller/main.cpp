// snapshot-controller: the cluster-wide half of the CSI external-snapshotter. All logic is in
// run.cpp.
#include "base/heap.h"
#include "cmd/snapshot-controller/run.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();  // before any thread: docs/design.md §5.1
  return snapshotcontroller::Run(argc, argv);
}
