// Run: the resizer's whole life, in upstream's start-up order
// (docs/resizer.md §2.3): flags, logging, --version, the HTTP flag conflict,
// the feature gates, the Kubernetes client, the CSI start-up (connect,
// probe, driver name, capabilities, the expander), the HTTP endpoint, then
// the resize controller, under leader election if asked, until a signal.
// Every failure is logged and becomes an exit code (component/exit_codes.h),
// so tests can drive Run and read what it returns.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace csiresizer {

using component::RunEnvironment;

// `args` includes the program name (argv[0]).
int Run(const std::vector<std::string>& args, RunEnvironment env = {});

// For main(): the real argv, stdout/stderr and signal handling.
int Run(int argc, const char* const* argv);

}  // namespace csiresizer
