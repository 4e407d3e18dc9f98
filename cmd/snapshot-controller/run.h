// Run: the snapshot-controller's whole life, in upstream's start-up order
// (docs/snapshots.md §4.1): flags, logging, feature gates, --version, the
// Kubernetes client, the snapshot CRDs, the group snapshot CRDs, the HTTP
// endpoint, then the controller, under leader election if asked, until a
// signal; a signal hands over gracefully (§9.8).
//
// Every failure is logged and becomes an exit code (component/exit_codes.h)
// instead of ending the process, so tests can drive Run with arguments and
// read what it returns and prints.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace snapshotcontroller {

using component::RunEnvironment;

// `args` includes the program name (argv[0]).
int Run(const std::vector<std::string>& args, RunEnvironment env = {});

// For main(): the real argv, stdout/stderr and signal handling.
int Run(int argc, const char* const* argv);

}  // namespace snapshotcontroller
