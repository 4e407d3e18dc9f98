// Pod workload 1, mix: what one driver's controller Pod does for --n
// volumes, phase after phase, each phase's objects created at once once the
// previous phase is done: claims of the expandable class provisioned and
// bound (provision_s), a VolumeAttachment of each PV attached (attach_s),
// each claim raised to kResizeTo until its PV has grown (resize_s), a
// dynamic VolumeSnapshotContent of each volume readyToUse (snapshot_s).
// wall_s runs from the contender's start to the last snapshot ready; then
// idle_s and the contender's watches (PodWorkload::IdleAndWatches). The
// runner adds each process's CPU, RSS and API connections and their totals.
#include "bench/pod_workload.h"

namespace bench {
namespace {

class PodMix : public PodWorkload {
 public:
  explicit PodMix(const BenchOptions& options) : n_(options.n) {}

  size_t Objects() const override { return n_; }
  base::Status Populate(kube::Client& admin) override { return {}; }

  base::Result<Figures> Measure(RunContext& ctx) override {
    const std::vector<std::string> claims = Names("claim-" + ctx.tag, n_);
    std::vector<std::string> volumes;
    auto provisioned = Provision(ctx, claims, volumes);
    if (!provisioned.ok()) return provisioned.error();
    auto attached = Attach(ctx, volumes);
    if (!attached.ok()) return attached.error();
    auto resized = Resize(ctx, claims, volumes);
    if (!resized.ok()) return resized.error();
    auto snapshotted = Snapshot(ctx, volumes);
    if (!snapshotted.ok()) return snapshotted.error();
    const double wall_s = Seconds(Clock::now() - ctx.started);
    Figures figures = {{"wall_s", wall_s},
                       {"provision_s", *provisioned},
                       {"attach_s", *attached},
                       {"resize_s", *resized},
                       {"snapshot_s", *snapshotted}};
    auto rest = IdleAndWatches(ctx);
    if (!rest.ok()) return rest.error();
    figures.insert(figures.end(), rest->begin(), rest->end());
    return figures;
  }

 private:
  size_t n_;
};

}  // namespace

std::unique_ptr<PodWorkload> MakePodMix(const BenchOptions& options) {
  return std::make_unique<PodMix>(options);
}

}  // namespace bench
