// csi-resizer: the CSI external-resizer sidecar. Everything else is in resizer/command.
#include "base/heap.h"
#include "base/scheduling.h"
#include "resizer/command/run.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();      // before any thread: docs/design.md §5.1
  base::PreferBatchScheduling();  // before any thread, so all inherit it: docs/design.md §5
  return csiresizer::Run(argc, argv);
}
