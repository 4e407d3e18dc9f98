// csi-provisioner: the CSI external-provisioner sidecar. Everything else is in provisioner/command.
#include "base/heap.h"
#include "base/scheduling.h"
#include "provisioner/command/run.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();      // before any thread: docs/design.md §5.1
  base::PreferBatchScheduling();  // before any thread, so all inherit it: docs/design.md §5
  return csiprovisioner::Run(argc, argv);
}
