// CsvSink: appends long-format benchmark rows to a file, one figure a row:
//   workload,latency_ms,qps,burst,workers,n,contender,rep,metric,value
// Long format lets every workload report its own figures; bench-report
// pivots them into the markdown table.
//
// LatencySink: appends the per-object latencies of the workloads that record
// them (the stream workloads: attacher stream, snap-stream, snap-readiness,
// prov-stream) to latencies.csv, one object a row, with the same cell columns:
//   workload,latency_ms,qps,burst,workers,n,contender,rep,series,object,ms
// series names the distribution whose p50 and p99 results.csv holds (series
// "attach": attach_p50_ms, attach_p99_ms); object is the object's index in
// arrival order (stream-000042 is 42); ms its latency in milliseconds. An
// object without a stamp has no row. scripts/bench-plots.sh draws each cell's
// distributions from it.
#pragma once

#include <fstream>
#include <string>

#include "base/result.h"
#include "bench/options.h"
#include "bench/workload.h"

namespace bench {

class CsvSink {
 public:
  CsvSink(const std::string& path, const BenchOptions& options);
  bool ok() const { return out_.good(); }
  void Write(const std::string& contender, int rep, const std::string& metric, double value);

 private:
  std::ofstream out_;
  std::string prefix_;  // the cell's columns
};

class LatencySink {
 public:
  LatencySink(std::string path, const BenchOptions& options);
  // Opens the file at the first series, so cells without per-object
  // latencies leave no empty latencies.csv behind.
  base::Status Write(const std::string& contender, int rep, const LatencySeries& series);

 private:
  std::string path_;
  std::ofstream out_;
  std::string prefix_;  // the cell's columns
};

}  // namespace bench
