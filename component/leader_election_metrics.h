// One Lease's series of leader_election_master_status and
// leader_election_slowpath_total (ALPHA), as client-go's leader-election
// metrics provider reports them; the families are registered by
// SidecarMetricFamilies (sidecar_metric_families.h).
#pragma once

#include "metrics/registry.h"

namespace component {

struct LeaderElectionMetrics {
  metrics::Gauge& master_status;     // 1 while leading, else 0
  metrics::Counter& slowpath_total;  // renewals that took the slow path
};

}  // namespace component
