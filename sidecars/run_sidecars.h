// csi-sidecars: one process running any subset of a driver's controller
// sidecars (docs/csi-sidecars.md), each a component::ControllerPart, over
//   - one CSI connection: one probe, one GetPluginInfo, capabilities read once;
//   - one API transport (one HTTP/2 connection), each part with a client and
//     QPS budget of its own, and one informer per kind shared by the parts
//     that watch it;
//   - one HTTP endpoint: every part's metrics once, and one
//     /healthz/leader-election/<lease> per Lease besides the aggregate
//     /healthz/leader-election;
//   - one Lease per part, under the separate sidecar's name, so either kind
//     of process takes over from the other.
//
// The command line: --controllers=<names> selects the parts; the flags the
// sidecars share are given once, each part's own carry its name as prefix
// (--attacher-worker-threads); --timeout sets every part's default CSI
// deadline. A flag of a part not selected is an error.
//
// A part whose prerequisite is missing once the driver is known (e.g. a
// driver that cannot snapshot) is reported and stays off; the others run.
// Losing any Lease ends the process (exit 1) as it ends a separate sidecar:
// its restart competes for every Lease again, while the other processes'
// standbys take over the parts it led.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "component/controller_part.h"
#include "component/run_environment.h"

namespace sidecars {

using Parts = std::vector<std::unique_ptr<component::ControllerPart>>;

// `args` includes the program name; `parts` are every controller the
// binary knows, in the order --controllers' help lists them.
int Run(const std::vector<std::string>& args, component::RunEnvironment env, Parts parts);

}  // namespace sidecars
