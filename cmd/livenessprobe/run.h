// livenessprobe's Run: parse and check the flags, then liveness::RunLivenessProbe
// until SIGTERM or SIGINT (exit 0). Exit codes: 2 for command-line mistakes
// (--version is one: upstream has no such flag), 1 for bad logging flags,
// conflicting HTTP flags, a server that cannot listen and a driver that does
// not name itself.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace livenessprobe {

int Run(const std::vector<std::string>& args, component::RunEnvironment env);
int Run(int argc, const char* const* argv);

}  // namespace livenessprobe
