// csi-attacher: the CSI external-attacher sidecar. Everything else is in attacher/command.
#include "attacher/command/run.h"
#include "base/heap.h"
#include "base/scheduling.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();      // before any thread: docs/design.md §5.1
  base::PreferBatchScheduling();  // before any thread, so all inherit it: docs/design.md §5
  return csiattacher::Run(argc, argv);
}
