// Pod workload 2, scale: --existing claims of the expandable class, Bound
// to their PVs with their capacity in status (bound_claim.h), exist already,
// so every controller that watches claims or PVs caches them and none has
// work to do for them. One populated control plane serves every run of the
// cell; each run adds claims of its own. Figures: seconds from the start
// until a warm-up claim is bound (synced_s: the provisioner queues it behind
// its initial lists), then those of --n new claims created at once
// (provision_s: first request until the last bound), idle_s and the
// contender's watches (PodWorkload::IdleAndWatches). The runner adds the
// peak RSS and the RSS at the end, per process and in total.
#include "bench/bound_claim.h"
#include "bench/parallel.h"
#include "bench/pod_workload.h"
#include "bench/resize_objects.h"

namespace bench {
namespace {

class PodScale : public PodWorkload {
 public:
  // `options` outlives the workload (the stack's).
  explicit PodScale(const BenchOptions& options) : options_(options) {}

  bool SharesControlPlane() const override { return true; }
  size_t Objects() const override { return options_.n + 1; }

  base::Status Populate(kube::Client& admin) override {
    const std::vector<std::string> existing = Names("bound", options_.existing);
    return ForEachParallel(existing.size(), options_.creator_threads, [&](size_t i) {
      // kube-controller-manager runs: as its binder left them.
      return CreateResizableClaim(admin, existing[i],
                                  /*binder_annotations=*/true);
    });
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    const std::string prefix = "new-" + ctx.tag;
    std::vector<std::string> volumes;
    const auto warm_start = Clock::now();
    auto warm = Provision(ctx, {prefix + "-warmup"}, volumes);
    if (!warm.ok()) return warm.error();
    const double synced_s = Seconds(warm_start - ctx.started) + *warm;
    auto provisioned = Provision(ctx, Names(prefix, options_.n), volumes);
    if (!provisioned.ok()) return provisioned.error();
    Figures figures = {{"synced_s", synced_s}, {"provision_s", *provisioned}};
    auto rest = IdleAndWatches(ctx);
    if (!rest.ok()) return rest.error();
    figures.insert(figures.end(), rest->begin(), rest->end());
    return figures;
  }

 private:
  const BenchOptions& options_;
};

}  // namespace

std::unique_ptr<PodWorkload> MakePodScale(const BenchOptions& options) {
  return std::make_unique<PodScale>(options);
}

}  // namespace bench
