// The benchmark report: reads the long-format CSV rows of CsvSink, takes the
// median of each figure over the repetitions, and renders one markdown table
// per cell (the contenders that ran: ours, mixed, upstream, then ours/upstream,
// mixed/upstream, floor, ours/floor, mixed/floor) followed by the project's
// speed targets, each marked met or missed for every cell it applies to.
// Figures are reported, never asserted.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace bench {

struct CsvRow {
  std::string cell;  // workload,latency_ms,qps,burst,workers,n
  std::string workload;
  double latency_ms = 0;
  double qps = 0;
  std::string contender;
  std::string metric;
  double value = 0;
};

// Malformed lines are skipped.
std::vector<CsvRow> ReadCsvRows(std::istream& in);

std::string RenderReport(const std::vector<CsvRow>& rows);

}  // namespace bench
