// csi-node-driver-registrar's Run (docs/node-sidecars.md §3.2): parse the flags
// (--version prints and exits 0), require --kubelet-registration-path (exit
// 1), answer --mode=kubelet-registration-probe with exit 0, refuse both HTTP
// flags (exit 1), then registrar::RunRegistrar until SIGTERM or SIGINT.
#pragma once

#include <string>
#include <vector>

#include "component/run_environment.h"

namespace noderegistrar {

int Run(const std::vector<std::string>& args, component::RunEnvironment env);
int Run(int argc, const char* const* argv);

}  // namespace noderegistrar
