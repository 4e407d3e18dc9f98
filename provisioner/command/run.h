// Run: the provisioner's whole life, in upstream's start-up order
// (docs/provisioner.md §2.4): flags, logging, feature gates, NODE_NAME with
// --node-deployment, --version, the flag checks, the Kubernetes client, the
// HTTP flag conflict, the CSI start-up (connect, probe, driver name,
// capabilities; NodeGetInfo with --node-deployment), the HTTP endpoint,
// then the claim and volume controllers, under leader election if asked,
// until a signal. Every failure is logged and becomes an exit code
// (component/exit_codes.h), so tests can drive Run and read what it returns.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace csiprovisioner {

using component::RunEnvironment;

// `args` includes the program name (argv[0]).
int Run(const std::vector<std::string>& args, RunEnvironment env = {});

// For main(): the real argv, stdout/stderr and signal handling.
int Run(int argc, const char* const* argv);

}  // namespace csiprovisioner
