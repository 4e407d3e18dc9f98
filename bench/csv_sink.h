// CsvSink: appends long-format benchmark rows to a file, one figure a row:
//   workload,latency_ms,qps,burst,workers,n,contender,rep,metric,value
// Long format lets every workload report its own figures; bench-report
// pivots them into the markdown table.
#pragma once

#include <fstream>
#include <string>

#include "bench/options.h"

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

}  // namespace bench
