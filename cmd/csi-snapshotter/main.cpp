// csi-snapshotter: the CSI external-snapshotter sidecar. Everything else is in snapshotter/command.
#include "base/heap.h"
#include "base/scheduling.h"
#include "snapshotter/command/run.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();      // before any thread: docs/design.md §5.1
  base::PreferBatchScheduling();  // before any thread, so all inherit it: docs/design.md §5
  return csisnapshotter::Run(argc, argv);
}
