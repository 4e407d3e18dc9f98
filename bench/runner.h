// RunCell: the runs of one benchmark cell of a stack. Contenders alternate
// (A B A B ..., the floor after each pair) for --reps repetitions; each run
// gets a fresh control plane (etcd + kube-apiserver from the tests' launcher,
// set up by the stack) unless the workload shares one, a fresh fault-csi-driver
// with the stack's flags, and the workload's observers. Per run it appends to
// the CSV: the workload's figures; per contender process (prefixed with its
// role and '_' when it has one) CPU seconds, peak, final and anonymous RSS
// (from /proc, read just before it is stopped), and for a contender whose
// processes have roles their totals (all_cpu_s, all_peak_rss_mb,
// max_peak_rss_mb, all_rss_anon_mb, all_tcp_connections); the API requests it made
// (apiserver_request_total, after minus before) by verb and resource, its
// object and event writes; the CSI calls the driver logged, by method; and
// writes and CSI operations per object when the workload counts objects;
// and, to --latencies-csv, the per-object latencies the workload recorded.
// A workload that SettlesRequests has the runner wait, before it samples
// and counts, until the contender's requests stop (settle_s). Logs stay in
// --work-dir.
#pragma once

#include "base/result.h"
#include "bench/options.h"
#include "bench/stack.h"

namespace bench {

base::Status RunCell(const BenchOptions& options, Stack& stack);

}  // namespace bench
