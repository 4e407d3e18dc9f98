// BenchOptions: one benchmark cell (a workload at one driver latency and one
// QPS setting) and how many alternating runs of which contenders to make.
// Parsed from --key=value flags; see Usage() for the list.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"

namespace bench {

struct BenchOptions {
  std::string workload;   // backlog | stream | storm | scale
  size_t n = 2000;        // backlog: VAs; scale: attached VAs; storm: detaches
  size_t attaches = 100;  // storm: attaches arriving behind the detaches
  double rate = 0;        // stream: VAs per second; 0 = 1/s throttled, 20/s unthrottled
  int duration_s = 60;    // stream: how long VAs keep arriving
  std::chrono::milliseconds latency{0};  // driver publish and unpublish latency
  double qps = 5;
  int burst = 10;
  int workers = 10;
  std::string timeout = "30s";  // the attachers' --timeout
  int reps = 1;
  std::vector<std::string> contenders = {"ours", "upstream", "floor"};
  std::string ours_bin = OURS_ATTACHER_BIN;
  std::string upstream_bin;
  std::string driver_bin = FAULT_DRIVER_BIN;
  std::string csv;       // rows are appended
  std::string work_dir;  // logs of every run are kept here
  int creator_threads = 16;
  int phase_timeout_s = 1800;  // give up waiting for one phase after this

  // Rate the stream workload uses.
  double StreamRate() const { return rate > 0 ? rate : (qps < 50 ? 1.0 : 20.0); }
};

base::Result<BenchOptions> ParseOptions(int argc, char** argv);
const char* Usage();

}  // namespace bench
