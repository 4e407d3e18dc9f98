#include "bench/csv_sink.h"

#include <fmt/format.h>

namespace bench {

CsvSink::CsvSink(const std::string& path, const BenchOptions& options)
    : out_(path, std::ios::app),
      prefix_(fmt::format("{},{},{},{},{},{}", options.workload, options.latency.count(),
                          options.qps, options.burst, options.workers, options.n)) {}

void CsvSink::Write(const std::string& contender, int rep, const std::string& metric,
                    double value) {
  // Metric names never contain commas (request keys use spaces and '/').
  out_ << prefix_ << ',' << contender << ',' << rep << ',' << metric << ','
       << fmt::format("{:.6g}", value) << '\n';
  out_.flush();
}

}  // namespace bench
