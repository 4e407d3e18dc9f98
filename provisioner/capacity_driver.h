// CapacityDriver: the CSI call of capacity tracking (docs/provisioner.md §5),
// GetCapacity for a class's parameters in one segment; handler tests use a
// scripted fake. CsiCapacityDriver asks the driver's Controller service
// within `timeout` (--timeout); a driver's failure is a gRPC-domain
// base::Error (csi/errors.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/controller_client.h"
#include "kube/api/string_map.h"
#include "provisioner/topology_terms.h"

namespace provisioner {

struct ReportedCapacity {
  int64_t available_bytes = 0;
  std::optional<int64_t> maximum_volume_size;  // unset: the driver knows no limit
};

class CapacityDriver {
 public:
  virtual ~CapacityDriver() = default;
  // Upstream's request: the parameters unfiltered (reserved keys included),
  // no volume capabilities, the segment as accessible_topology.
  virtual base::Result<ReportedCapacity> GetCapacity(const kube::StringMap& parameters,
                                                     const TopologyTerm& segment) = 0;
};

class CsiCapacityDriver final : public CapacityDriver {
 public:
  CsiCapacityDriver(csi::Connection& connection, std::chrono::nanoseconds timeout)
      : controller_(connection), timeout_(timeout) {}

  base::Result<ReportedCapacity> GetCapacity(const kube::StringMap& parameters,
                                             const TopologyTerm& segment) override;

 private:
  csi::ControllerClient controller_;
  const std::chrono::nanoseconds timeout_;
};

}  // namespace provisioner
