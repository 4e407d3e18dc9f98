// The VolumeAttributesClass gate at start-up, as upstream's provisioner and
// resizer settle it (docs/resizer.md §2.3 step 2, docs/provisioner.md §2.4):
// a gate given on the command line is kept; otherwise, on an API server whose
// storage.k8s.io/v1 serves no VolumeAttributesClass, it is turned off
// ("Disabling VolumeAttributesClass feature gate because the
// VolumeAttributesClass v1 API is not available"). A discovery that fails
// leaves the gate as it is (the failure is logged).
#pragma once

#include <mutex>
#include <optional>
#include <string_view>

#include "base/result.h"
#include "kube/client/client.h"

namespace component {

// Whether the API server lists `kind` among the resources of
// `group_version` ("storage.k8s.io/v1"; "v1" for the core group), as
// client-go's ServerResourcesForGroupVersion reports them: a group version
// it does not serve (404) is false, any other failure an error.
base::Result<bool> ServesKind(kube::Client& client, std::string_view group_version,
                              std::string_view kind);

// The gate's value for this run: `enabled` when `set_on_command_line` or
// already off, else whether the API server serves VolumeAttributesClasses
// (on when it cannot tell).
bool SettleVolumeAttributesClassGate(kube::Client& client, bool enabled, bool set_on_command_line);

// The gate settled once for a process whose parts each need it (csi-sidecars'
// provisioner and resizer, under one --feature-gates): the first Settle asks
// the API server, later ones get that answer. Thread-safe.
class VolumeAttributesClassGateOnce {
 public:
  bool Settle(kube::Client& client, bool enabled, bool set_on_command_line);

 private:
  std::mutex mu_;
  std::optional<bool> settled_;  // guarded by mu_
};

}  // namespace component
