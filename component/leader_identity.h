// Who a sidecar is in the Lease competition, as csi-lib-utils' leader
// election has it: the hostname (in a Pod, the Pod's name), sanitized like the
// Lease name (docs/attacher.md §3, docs/snapshots.md §3.2 step 8). Test hook:
// the environment variable `override_env`, when set, replaces the hostname
// (integration tests run two sidecars on one host).
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace component {

base::Result<std::string> LeaderElectionIdentity(std::string_view override_env);

}  // namespace component
