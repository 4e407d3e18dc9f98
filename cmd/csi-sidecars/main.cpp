// csi-sidecars: the controller sidecars of a CSI driver in one process.
// Everything else is in sidecars/ and each sidecar's command folder.
#include "attacher/command/attacher_part.h"
#include "base/heap.h"
#include "base/scheduling.h"
#include "component/run_environment.h"
#include "provisioner/command/provisioner_part.h"
#include "resizer/command/resizer_part.h"
#include "sidecars/run_sidecars.h"
#include "snapshotter/command/snapshotter_part.h"

int main(int argc, char** argv) {
  base::LimitMallocArenas();      // before any thread: docs/design.md §5.1
  base::PreferBatchScheduling();  // before any thread, so all inherit it: docs/design.md §5
  sidecars::Parts parts;
  parts.push_back(csiattacher::NewAttacherPart());
  parts.push_back(csiprovisioner::NewProvisionerPart());
  parts.push_back(csiresizer::NewResizerPart());
  parts.push_back(csisnapshotter::NewSnapshotterPart());
  return sidecars::Run(std::vector<std::string>(argv, argv + argc),
                       component::ProcessEnvironment("CSI_SIDECARS_TERMINATION_LOG"),
                       std::move(parts));
}
