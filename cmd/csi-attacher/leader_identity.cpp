#include "cmd/csi-attacher/leader_identity.h"

#include <cstdlib>

#include "base/hostname.h"
#include "kube/api/names.h"

namespace csiattacher {

base::Result<std::string> LeaderElectionIdentity() {
  if (const char* id = std::getenv("CSI_ATTACHER_LEADER_IDENTITY"); id && *id) {
    return kube::SanitizeName(id);
  }
  base::Result<std::string> host = base::Hostname();
  if (!host.ok()) return host.error().Wrap("error getting the default leader identity");
  return kube::SanitizeName(*host);
}

}  // namespace csiattacher
