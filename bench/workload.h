// Workload: one of the four benchmark scenarios. The runner gives each run a
// control plane (fresh, or shared across a cell when SharesControlPlane()),
// calls Populate once per control plane, Prepare before the contender starts,
// then Measure with the contender running; Measure returns named figures
// (seconds, milliseconds, counts) that become CSV rows.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "bench/options.h"
#include "bench/va_observer.h"
#include "kube/client/client.h"

namespace bench {

using Figures = std::vector<std::pair<std::string, double>>;

struct RunContext {
  kube::Client& admin;
  const BenchOptions& options;
  std::string tag;  // unique per run, for object names a run adds
  VaObserver* observer = nullptr;
  pid_t contender_pid = 0;  // 0 for the floor
  Clock::time_point started{};
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual base::Status Populate(kube::Client& admin) = 0;
  virtual base::Status Prepare(RunContext& ctx) { return {}; }
  virtual base::Result<Figures> Measure(RunContext& ctx) = 0;
  virtual bool SharesControlPlane() const { return false; }
  // The floor only makes sense where there are writes to do.
  virtual bool HasFloor() const { return true; }
};

base::Result<std::unique_ptr<Workload>> MakeWorkload(const BenchOptions& options);

// Shared steps of the workloads.
std::vector<std::string> Names(const std::string& prefix, size_t count);
base::Status CreatePairs(kube::Client& admin, const std::vector<std::string>& names, int threads,
                         bool attached);
// Creates pair `name` and waits until the contender attached it: proves the
// contender is up and has worked through its initial list.
base::Status AttachOne(RunContext& ctx, const std::string& name);
base::Status WaitAllAttached(RunContext& ctx, const std::vector<std::string>& names);
base::Status WaitAllDeleted(RunContext& ctx, const std::vector<std::string>& names);
// Seconds from `from` to the latest stamp among `names`.
double SecondsToLast(const std::vector<std::optional<Clock::time_point>>& stamps,
                     Clock::time_point from);
double Seconds(Clock::duration d);
// Per VA, milliseconds from created[i] to the watch showing names[i] attached.
std::vector<double> AttachLatenciesMs(const VaObserver& observer,
                                      const std::vector<std::string>& names,
                                      const std::vector<Clock::time_point>& created);

}  // namespace bench
