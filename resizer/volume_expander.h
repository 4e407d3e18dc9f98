// VolumeExpander: how the resize controller asks for a volume's new size
// (docs/resizer.md §4.4 step 4). Two kinds, chosen at start-up from the
// driver's capabilities (§2.3 step 4):
//   - CsiVolumeExpander, for a driver with the EXPAND_VOLUME controller
//     capability: a ControllerGetCapabilities call (to learn
//     SINGLE_NODE_MULTI_WRITER for the access mode) then
//     ControllerExpandVolume {volume_id, capacity_range.required_bytes,
//     secrets, volume_capability}, each under its own --resize-timeout. For
//     a driver that in-tree volumes migrate to, a PV without a CSI source is
//     translated first (migration/translate.h, docs/resizer.md §9) and the
//     call is counted as migrated;
//   - NodeOnlyExpander, for a driver that expands on the node only: no call,
//     the size asked for and "the node must expand".
// Errors keep the gRPC code of a failed call (csi/errors.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/controller_client.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/string_map.h"

namespace resizer {

struct Expansion {
  int64_t capacity_bytes = 0;
  bool node_expansion_required = false;
};

class VolumeExpander {
 public:
  virtual ~VolumeExpander() = default;
  // Whether the driver itself expands (not node-only).
  virtual bool ExpandsInController() const = 0;
  virtual base::Result<Expansion> Expand(const kube::PersistentVolume& volume, int64_t bytes,
                                         const kube::StringMap& secrets) = 0;
};

class CsiVolumeExpander final : public VolumeExpander {
 public:
  // `translates_in_tree`: in-tree volumes migrate to the driver.
  CsiVolumeExpander(csi::Connection& connection, std::chrono::nanoseconds timeout,
                    bool translates_in_tree)
      : connection_(connection),
        controller_(connection),
        timeout_(timeout),
        translates_in_tree_(translates_in_tree) {}

  bool ExpandsInController() const override { return true; }
  base::Result<Expansion> Expand(const kube::PersistentVolume& volume, int64_t bytes,
                                 const kube::StringMap& secrets) override;

 private:
  csi::Connection& connection_;
  csi::ControllerClient controller_;
  const std::chrono::nanoseconds timeout_;
  const bool translates_in_tree_;
};

class NodeOnlyExpander final : public VolumeExpander {
 public:
  bool ExpandsInController() const override { return false; }
  base::Result<Expansion> Expand(const kube::PersistentVolume&, int64_t bytes,
                                 const kube::StringMap&) override {
    return Expansion{.capacity_bytes = bytes, .node_expansion_required = true};
  }
};

}  // namespace resizer
