// csi-snapshotter: the CSI external-snapshotter sidecar. All logic is in run.cpp.
#include "base/heap.h"
#include "cmd/csi-snapshotter/run.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();  // before any thread: docs/design.md §5.1
  return csisnapshotter::Run(argc, argv);
}
