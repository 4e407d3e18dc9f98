// RunCell: the runs of one benchmark cell. Contenders alternate (A B A B ...,
// the floor after each pair) for --reps repetitions; each run gets a fresh
// control plane (etcd + kube-apiserver from the tests' launcher) unless the
// workload shares one, a fresh fault-csi-driver in no-fault mode, and an
// observer watch. Per run it appends to the CSV: the workload's figures, the
// contender's CPU seconds, peak and final RSS (from /proc, read just before it
// is stopped) and the API requests it made (apiserver_request_total, after
// minus before). Logs stay in --work-dir.
#pragma once

#include "base/result.h"
#include "bench/options.h"

namespace bench {

base::Status RunCell(const BenchOptions& options);

}  // namespace bench
