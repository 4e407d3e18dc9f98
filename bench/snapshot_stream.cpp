// Snapshot workloads 2 and 3, stream and readiness: after a warm-up snapshot,
// VolumeSnapshots of sources created beforehand arrive at a fixed rate below
// saturation (0.2/s at QPS 5: upstream's controller makes about 17 requests
// per snapshot, under 5 QPS; 10/s unthrottled) for --duration seconds. Figures: per snapshot,
// milliseconds from just before its create request to the watch showing it
// readyToUse (p50, p99; every snapshot's in latencies.csv as series "ready").
// Readiness: the driver answers ready only from the --ready-after-th answer on
// (the CreateSnapshot and the polls after it), so the create-to-ready time
// shows the contender's polling cadence; it also reports the time from the
// driver's first ready answer (its log, see driver_log.h) to readyToUse
// (series "driver_to_ready").
#include <thread>

#include "bench/driver_log.h"
#include "bench/percentile.h"
#include "bench/snapshot_objects.h"
#include "bench/snapshot_workload.h"
#include "snapshotter/names.h"

namespace bench {
namespace {

constexpr const char* kWarmUp = "warmup";

class SnapshotStream : public SnapshotWorkload {
 public:
  SnapshotStream(const BenchOptions& options, bool readiness)
      : readiness_(readiness),
        ready_after_(readiness ? options.ready_after : 1),
        interval_(1.0 / options.StreamRate(0.2, 10.0)) {
    names_ = Names(readiness ? "ready" : "stream",
                   static_cast<size_t>(options.duration_s / interval_.count()));
  }

  std::vector<std::string> VolumeHandles() const override {
    std::vector<std::string> handles = names_;
    handles.push_back(kWarmUp);
    return handles;
  }
  int ReadyAfter() const override { return ready_after_; }
  size_t Objects() const override { return names_.size() + 1; }

  base::Status Populate(kube::Client& admin) override { return {}; }

  // Sources before the first request count: only snapshots arrive in the run.
  base::Status Prepare(RunContext& ctx) override {
    return CreateSources(ctx.admin, VolumeHandles(), ctx.options.creator_threads);
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = SnapshotOne(ctx, kWarmUp, kWarmUp); !status.ok()) return status.error();
    std::vector<Clock::time_point> created(names_.size());
    std::vector<std::string> driver_names(names_.size());
    auto start = Clock::now();
    for (size_t i = 0; i < names_.size(); ++i) {
      // An absolute schedule: a slow create does not shift later arrivals.
      std::this_thread::sleep_until(
          start + std::chrono::duration_cast<Clock::duration>(interval_ * static_cast<double>(i)));
      created[i] = Clock::now();
      auto snapshot = CreateVolumeSnapshot(ctx.admin, names_[i], names_[i]);
      if (!snapshot.ok()) return snapshot.error();
      driver_names[i] =
          snapshotter::SnapshotName(kSnapshotNamePrefix, snapshot->metadata.uid.str(), -1);
    }
    if (auto status = WaitAllReady(ctx, names_); !status.ok()) return status.error();
    const Stamps ready = snapshots().DoneStamps(names_);
    auto latencies = RecordLatencies(ctx, "ready", ready, created);
    Figures figures = {{"snapshots", static_cast<double>(names_.size())},
                       {"rate_per_s", 1.0 / interval_.count()},
                       {"ready_p50_ms", Percentile(latencies, 50)},
                       {"ready_p99_ms", Percentile(latencies, 99)},
                       {"wall_s", Seconds(Clock::now() - start)}};
    if (!readiness_) return figures;
    auto log = ReadDriverLog(ctx.driver_log);
    if (!log.ok()) return log.error();
    std::vector<Clock::time_point> driver_ready;
    Stamps matched;
    for (size_t i = 0; i < names_.size(); ++i) {
      auto it = log->first_ready.find(driver_names[i]);
      if (it == log->first_ready.end()) continue;
      driver_ready.push_back(ToSteady(it->second));
      matched.push_back(ready[i]);
    }
    if (matched.size() != names_.size()) {
      return base::Error("the driver log shows " + std::to_string(matched.size()) + " of " +
                         std::to_string(names_.size()) + " snapshots answered ready");
    }
    auto after_driver = RecordLatencies(ctx, "driver_to_ready", matched, driver_ready);
    figures.insert(figures.end(), {{"ready_after", static_cast<double>(ready_after_)},
                                   {"driver_to_ready_p50_ms", Percentile(after_driver, 50)},
                                   {"driver_to_ready_p99_ms", Percentile(after_driver, 99)}});
    return figures;
  }

 private:
  const bool readiness_;
  const int ready_after_;
  const std::chrono::duration<double> interval_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<SnapshotWorkload> MakeSnapshotStream(const BenchOptions& options, bool readiness) {
  return std::make_unique<SnapshotStream>(options, readiness);
}

}  // namespace bench
