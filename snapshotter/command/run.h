// Run: the snapshotter's whole life, in upstream's start-up order
// (docs/snapshots.md §3.2): flags, logging, feature gates, --version, the
// flag checks, the Kubernetes client, NODE_NAME, the HTTP flag conflict, the
// CSI start-up (connect, driver name, HTTP endpoint, probe, capabilities),
// the group snapshot CRDs, then the sidecar, under leader election if
// asked, until a signal.
//
// Every failure is logged and becomes an exit code (component/exit_codes.h)
// instead of ending the process, so tests can drive Run with arguments and
// read what it returns and prints.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace csisnapshotter {

using component::RunEnvironment;

// `args` includes the program name (argv[0]).
int Run(const std::vector<std::string>& args, RunEnvironment env = {});

// For main(): the real argv, stdout/stderr and signal handling.
int Run(int argc, const char* const* argv);

}  // namespace csisnapshotter
