#include "cmd/csi-attacher/leader_identity.h"

#include <cstdlib>

#include "attacher/names.h"
#include "base/hostname.h"

namespace csiattacher {

base::Result<std::string> LeaderElectionIdentity() {
  if (const char* id = std::getenv("CSI_ATTACHER_LEADER_IDENTITY"); id && *id) {
    return attacher::SanitizeName(id);
  }
  base::Result<std::string> host = base::Hostname();
  if (!host.ok()) return host.error().Wrap("error getting the default leader identity");
  return attacher::SanitizeName(*host);
}

}  // namespace csiattacher
