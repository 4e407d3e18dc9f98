// Workload: one benchmark scenario of a Stack (stack.h). The runner gives each
// run a control plane (fresh, or shared across a cell when
// SharesControlPlane()), calls Populate once per control plane, Prepare before
// the contender starts, StartObserving before the first request count, then
// Measure with the contender running, and StopObserving once the run's
// requests are counted. Measure returns named figures (seconds, milliseconds,
// counts) that become CSV rows.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "bench/object_observer.h"
#include "bench/options.h"
#include "kube/client/client.h"

namespace bench {

using Figures = std::vector<std::pair<std::string, double>>;

// One run's per-object latencies (latencies.csv): results.csv keeps only their
// p50 and p99, which cannot show a bimodal or long-tailed distribution.
struct LatencySeries {
  std::string name;  // "attach": the series whose percentiles are attach_p50_ms, attach_p99_ms
  // By object index (arrival order); nullopt: the object has no stamp.
  std::vector<std::optional<double>> ms;
};

struct RunContext {
  kube::Client& admin;
  const BenchOptions& options;
  std::string tag;            // unique per run, for object names a run adds
  std::string driver_log;     // the fault driver's log of this run
  std::vector<pid_t> pids{};  // the contender's processes; none for the in-process floor
  Clock::time_point started{};
  // Filled by Measure (RecordLatencies), written by the runner with the figures.
  std::vector<LatencySeries> latencies{};
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual base::Status Populate(kube::Client& admin) = 0;
  virtual base::Status Prepare(RunContext& ctx) { return {}; }
  // The watches that time a run: started before the contender, ended after
  // the run's requests are counted (a watch is counted when it ends).
  virtual base::Status StartObserving(kube::Client& admin) = 0;
  virtual void StopObserving() = 0;
  virtual base::Result<Figures> Measure(RunContext& ctx) = 0;
  virtual bool SharesControlPlane() const { return false; }
  // The floor only makes sense where there are writes to do.
  virtual bool HasFloor() const { return true; }
  // Whether the runner, once Measure returned, waits until the contender's
  // API requests stop (none for 3 s) before it samples and counts them, so
  // requests queued behind its QPS limit (Events) count in its figures; the
  // wait is reported as settle_s.
  virtual bool SettlesRequests() const { return false; }
  // How many objects (attachments, snapshots) one run handles; the runner
  // divides API writes and CSI calls by it. 0: no per-object figures.
  virtual size_t Objects() const { return 0; }
};

// Shared steps of the workloads.
// "<prefix>-000000" ... in index order.
std::vector<std::string> Names(const std::string& prefix, size_t count);
double Seconds(Clock::duration d);
// Seconds from `from` to the latest of `stamps` (missing ones ignored).
double SecondsToLast(const Stamps& stamps, Clock::time_point from);
// Per object, milliseconds from from[i] to stamps[i] (missing ones left out).
std::vector<double> LatenciesMs(const Stamps& stamps, const std::vector<Clock::time_point>& from);
// LatenciesMs that also keeps every object's latency, by index, in
// ctx.latencies under `name` for latencies.csv.
std::vector<double> RecordLatencies(RunContext& ctx, std::string name, const Stamps& stamps,
                                    const std::vector<Clock::time_point>& from);

}  // namespace bench
