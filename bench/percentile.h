// Order statistics for benchmark figures: nearest-rank percentiles, as
// latency reports usually state them (p99 of 100 samples is the 99th value).
#pragma once

#include <vector>

namespace bench {

// The p-th percentile (0 < p <= 100) of `values` by nearest rank; 0 when empty.
double Percentile(std::vector<double> values, double p);

// The middle value; the mean of the two middle values for an even count.
double Median(std::vector<double> values);

}  // namespace bench
