#include "component/leader_identity.h"

#include <cstdlib>

#include "base/hostname.h"
#include "kube/api/names.h"

namespace component {

base::Result<std::string> LeaderElectionIdentity(std::string_view override_env) {
  const std::string env(override_env);
  if (const char* id = std::getenv(env.c_str()); id && *id) return kube::SanitizeName(id);
  base::Result<std::string> host = base::Hostname();
  if (!host.ok()) return host.error().Wrap("error getting the default leader identity");
  return kube::SanitizeName(*host);
}

}  // namespace component
