#include "component/run_environment.h"

#include <cstdlib>

namespace component {

RunEnvironment ProcessEnvironment(const char* termination_log_env) {
  RunEnvironment env;
  if (const char* path = std::getenv(termination_log_env); path && *path) {
    env.termination_log_path = path;
  }
  return env;
}

}  // namespace component
