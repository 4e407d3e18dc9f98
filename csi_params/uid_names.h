// The names sidecars give the driver's objects (a volume, a snapshot): a
// prefix and the UID of the Kubernetes object they are made for, so a retry
// asks the driver for the same name and the driver's idempotency holds
// (docs/snapshots.md §3.4 create step 6, docs/provisioner.md §3.3 step 5).
#pragma once

#include <string>
#include <string_view>

namespace csi_params {

// "<prefix>-<uid>". With uuid_length >= 0 the UID loses its dashes and keeps
// its first uuid_length characters; where upstream panics on a UID shorter
// than that, the whole dashless UID is kept (the flags themselves are
// checked at start-up).
std::string PrefixedUidName(std::string_view prefix, std::string_view uid, int uuid_length);

}  // namespace csi_params
