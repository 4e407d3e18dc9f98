#include "bench/csv_sink.h"

#include <fmt/format.h>

#include <utility>

namespace bench {
namespace {

std::string CellColumns(const BenchOptions& options) {
  return fmt::format("{},{},{},{},{},{}", options.workload, options.latency.count(), options.qps,
                     options.burst, options.workers, options.n);
}

}  // namespace

CsvSink::CsvSink(const std::string& path, const BenchOptions& options)
    : out_(path, std::ios::app), prefix_(CellColumns(options)) {}

void CsvSink::Write(const std::string& contender, int rep, const std::string& metric,
                    double value) {
  // Metric names never contain commas (request keys use spaces and '/').
  out_ << prefix_ << ',' << contender << ',' << rep << ',' << metric << ','
       << fmt::format("{:.6g}", value) << '\n';
  out_.flush();
}

LatencySink::LatencySink(std::string path, const BenchOptions& options)
    : path_(std::move(path)), prefix_(CellColumns(options)) {}

base::Status LatencySink::Write(const std::string& contender, int rep,
                                const LatencySeries& series) {
  if (!out_.is_open()) out_.open(path_, std::ios::app);
  // One buffer per series: a run's thousands of rows in one write.
  std::string rows;
  for (size_t i = 0; i < series.ms.size(); ++i) {
    if (!series.ms[i]) continue;
    rows += fmt::format("{},{},{},{},{},{:.6g}\n", prefix_, contender, rep, series.name, i,
                        *series.ms[i]);
  }
  out_ << rows;
  out_.flush();
  if (!out_.good()) return base::Error("cannot append to " + path_);
  return {};
}

}  // namespace bench
