// leader_election_master_status and leader_election_slowpath_total (ALPHA),
// as client-go's leader-election metrics provider registers them: one series
// each, name="", 0 until the elector reports.
#pragma once

#include "metrics/registry.h"

namespace component {

struct LeaderElectionMetrics {
  metrics::Gauge& master_status;     // 1 while leading, else 0
  metrics::Counter& slowpath_total;  // renewals that took the slow path
};

// Registers both families on `registry`, which must outlive the result.
LeaderElectionMetrics AddLeaderElectionMetrics(metrics::Registry& registry);

}  // namespace component
