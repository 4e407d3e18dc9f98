// Who this attacher is in the Lease competition (docs/attacher.md §3): the
// hostname, sanitized like the Lease name. Test hook: env
// CSI_ATTACHER_LEADER_IDENTITY, when set, replaces the hostname
// (integration tests run two attachers on one host).
#pragma once

#include <string>

#include "base/result.h"

namespace csiattacher {

base::Result<std::string> LeaderElectionIdentity();

}  // namespace csiattacher
