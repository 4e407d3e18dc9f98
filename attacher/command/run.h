// Run: the attacher's whole life, in upstream's startup order (docs/attacher.md
// §1.4, §2): flags, logging, feature gates, --version, the HTTP flag
// conflict, the Kubernetes client, --worker-threads, the CSI sidecar start-up
// (connect, probe, driver name, HTTP endpoint, capabilities), then the
// controller, under leader election if asked, until a signal.
//
// Every failure is logged and becomes an exit code (component/exit_codes.h)
// instead of ending the process, so tests can drive Run with arguments and
// read what it returns and prints.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace csiattacher {

using component::RunEnvironment;

// `args` includes the program name (argv[0]).
int Run(const std::vector<std::string>& args, RunEnvironment env = {});

// For main(): the real argv, stdout/stderr and signal handling.
int Run(int argc, const char* const* argv);

}  // namespace csiattacher
