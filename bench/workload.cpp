#include "bench/workload.h"

#include <algorithm>

#include "bench/objects.h"

namespace bench {

std::vector<std::string> Names(const std::string& prefix, size_t count) {
  std::vector<std::string> names;
  names.reserve(count);
  for (size_t i = 0; i < count; ++i) names.push_back(ObjectName(prefix, i));
  return names;
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double SecondsToLast(const Stamps& stamps, Clock::time_point from) {
  Clock::time_point last = from;
  for (const auto& stamp : stamps) {
    if (stamp) last = std::max(last, *stamp);
  }
  return Seconds(last - from);
}

std::vector<double> LatenciesMs(const Stamps& stamps, const std::vector<Clock::time_point>& from) {
  std::vector<double> latencies;
  for (size_t i = 0; i < stamps.size() && i < from.size(); ++i) {
    if (stamps[i]) latencies.push_back(1000 * Seconds(*stamps[i] - from[i]));
  }
  return latencies;
}

std::vector<double> RecordLatencies(RunContext& ctx, std::string name, const Stamps& stamps,
                                    const std::vector<Clock::time_point>& from) {
  LatencySeries series{.name = std::move(name), .ms = {}};
  series.ms.reserve(from.size());
  for (size_t i = 0; i < stamps.size() && i < from.size(); ++i) {
    if (stamps[i]) {
      series.ms.emplace_back(1000 * Seconds(*stamps[i] - from[i]));
    } else {
      series.ms.emplace_back();
    }
  }
  ctx.latencies.push_back(std::move(series));
  return LatenciesMs(stamps, from);
}

}  // namespace bench
