// Snapshot workload 4, scale: --n VolumeSnapshots with their contents exist
// already ready (snapshot_objects.h: CreateReadySnapshot), so a correct pair
// has nothing to write and the driver nothing to do. One populated control
// plane serves every run of the cell. Figures: seconds from the start until
// a marker snapshot, created right after the start, is readyToUse (it queues
// behind both binaries' initial lists: synced), and until their CPU time
// stops growing (idle: under 20 ms of CPU together in a 2 s window). The
// runner adds each binary's peak RSS and its RSS at the end (3 s after idle).
#include <thread>

#include "bench/parallel.h"
#include "bench/proc_stats.h"
#include "bench/snapshot_objects.h"
#include "bench/snapshot_workload.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

constexpr const char* kMarkerVolume = "marker-volume";

class SnapshotScale : public SnapshotWorkload {
 public:
  explicit SnapshotScale(const BenchOptions& options)
      : names_(Names("ready", options.n)), threads_(options.creator_threads) {}

  bool SharesControlPlane() const override { return true; }
  bool HasFloor() const override { return false; }
  std::vector<std::string> VolumeHandles() const override { return {kMarkerVolume}; }

  base::Status Populate(kube::Client& admin) override {
    return ForEachParallel(names_.size(), threads_,
                           [&](size_t i) { return CreateReadySnapshot(admin, names_[i]); });
  }

  base::Status Prepare(RunContext& ctx) override {
    return CreateSource(ctx.admin, Marker(ctx), kMarkerVolume);
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    const std::string marker = Marker(ctx);
    if (auto status = SnapshotOne(ctx, marker, marker); !status.ok()) return status.error();
    double synced_s = Seconds(*snapshots().DoneAt(marker) - ctx.started);
    auto idle = IdleSince(ctx.pids, std::chrono::seconds(ctx.options.phase_timeout_s));
    if (!idle) return base::Error("the binaries never became idle (or one exited)");
    std::this_thread::sleep_for(3s);
    return Figures{{"synced_s", synced_s}, {"idle_s", Seconds(*idle - ctx.started)}};
  }

 private:
  static std::string Marker(const RunContext& ctx) { return "zzz-marker-" + ctx.tag; }

  std::vector<std::string> names_;
  int threads_;
};

}  // namespace

std::unique_ptr<SnapshotWorkload> MakeSnapshotScale(const BenchOptions& options) {
  return std::make_unique<SnapshotScale>(options);
}

}  // namespace bench
