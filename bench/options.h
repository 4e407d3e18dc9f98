// BenchOptions: one benchmark cell (a workload at one driver latency and one
// QPS setting) and how many alternating runs of which contenders to make.
// Parsed from --key=value flags; see Usage() for the list. attacher-bench,
// snapshot-bench and resize-bench share them; each stack checks the ones it
// needs.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace bench {

struct BenchOptions {
  // attacher: backlog | stream | storm | scale; snapshot: see snapshot_stack.h;
  // resizer: resize-backlog | resize-pods; provisioner: prov-backlog |
  // prov-stream | prov-scale | prov-capacity; pod: pod-mix | pod-scale
  std::string workload;
  // backlog: VAs, snapshots or claims; scale: attached VAs or ready snapshots (provisioner:
  // new claims); storm: detaches; provisioner capacity: Nodes
  size_t n = 2000;
  size_t attaches = 100;    // storm: attaches arriving behind the detaches
  size_t existing = 20000;  // provisioner scale: claims bound before the run
  double rate = 0;          // stream, readiness: arrivals per second; 0 = the stack's default
  int duration_s = 60;      // stream, readiness: how long objects keep arriving
  // Attacher: publish and unpublish latency; snapshot: CreateSnapshot latency;
  // resizer: ControllerExpandVolume latency; provisioner: CreateVolume latency.
  std::chrono::milliseconds latency{0};
  int ready_after = 3;  // snapshot readiness: the driver's K-th answer is the first ready one
  double qps = 5;
  int burst = 10;
  int workers = 10;
  std::string timeout = "30s";  // the contender binaries' --timeout
  int reps = 1;
  // ours, upstream, floor; the snapshot stack also has mixed (our sidecar,
  // upstream's controller); the pod stack has upstream4, ours4 and
  // csi-sidecars instead (pod_stack.h).
  std::vector<std::string> contenders = {"ours", "upstream", "floor"};
  // empty: this build's csi-attacher, csi-snapshotter, csi-resizer or csi-provisioner
  std::string ours_bin;
  std::string upstream_bin;
  std::string ours_controller_bin;  // empty: this build's snapshot-controller
  std::string upstream_controller_bin;
  // The pod stack's upstream4: each of upstream's four controller sidecars,
  // by name (attacher, provisioner, resizer, snapshotter).
  std::map<std::string, std::string> upstream_sidecar_bins;
  std::string crds_dir;  // the snapshot CRDs
  std::string driver_bin = FAULT_DRIVER_BIN;
  std::string csv;       // rows are appended
  std::string work_dir;  // logs of every run are kept here
  // Per-object latencies of the workloads that record them (csv_sink.h);
  // rows are appended. Default: latencies.csv in --csv's directory.
  std::string latencies_csv;
  int creator_threads = 16;
  int phase_timeout_s = 1800;  // give up waiting for one phase after this

  // The arrival rate: --rate, else the stack's default for a throttled
  // (QPS < 50) or an unthrottled client.
  double StreamRate(double throttled, double unthrottled) const {
    return rate > 0 ? rate : (qps < 50 ? throttled : unthrottled);
  }
};

// --worker-threads (or the binary's `workers_flag`: the resizer's is
// --workers), --kube-api-qps and --kube-api-burst as every contender binary
// gets them.
std::vector<std::string> ClientFlags(const BenchOptions& options,
                                     std::string_view workers_flag = "--worker-threads");

base::Result<BenchOptions> ParseOptions(int argc, char** argv);
const char* Usage();

}  // namespace bench
