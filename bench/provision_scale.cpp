// Provision workload 3, scale: --existing claims of the benchmark class,
// Bound to their PVs (bound_claim.h), exist already, so a provisioner caches
// them and has nothing to do for them. One populated control plane serves
// every run of the cell; each run adds claims of its own. Figures: seconds
// from the start until a warm-up claim is provisioned (synced_s: it queues
// behind the initial lists), then those of --n new claims created at once
// (ProvisionAtOnce: wall_s, per-claim p50 and p99), and seconds from the
// start until the provisioner's CPU time stops growing (idle_s). The runner
// adds the peak RSS and the RSS at the end (3 s after idle).
#include <thread>

#include "bench/bound_claim.h"
#include "bench/parallel.h"
#include "bench/proc_stats.h"
#include "bench/provision_objects.h"
#include "bench/provision_workload.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

class ProvisionScale : public ProvisionWorkload {
 public:
  explicit ProvisionScale(const BenchOptions& options)
      : existing_(Names("bound", options.existing)),
        new_claims_(options.n),
        threads_(options.creator_threads) {}

  bool SharesControlPlane() const override { return true; }
  size_t Objects() const override { return new_claims_ + 1; }

  base::Status Populate(kube::Client& admin) override {
    return ForEachParallel(existing_.size(), threads_, [&](size_t i) {
      return CreateBoundClaim(admin, {.ns = kProvisionNamespace,
                                      .name = existing_[i],
                                      .handle = existing_[i],
                                      .storage_class = kProvisionClassName});
    });
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    const std::string prefix = "new-" + ctx.tag;
    auto warm = ProvisionOne(ctx, prefix + "-warmup");
    if (!warm.ok()) return warm.error();
    const double synced_s = Seconds(*volumes().DoneAt(*warm) - ctx.started);
    auto figures = ProvisionAtOnce(ctx, Names(prefix, new_claims_));
    if (!figures.ok()) return figures.error();
    auto idle = IdleSince(ctx.pids, std::chrono::seconds(ctx.options.phase_timeout_s));
    if (!idle) return base::Error("the provisioner never became idle (or it exited)");
    std::this_thread::sleep_for(3s);
    figures->insert(figures->begin(), {"synced_s", synced_s});
    figures->emplace_back("idle_s", Seconds(*idle - ctx.started));
    return figures;
  }

 private:
  std::vector<std::string> existing_;
  size_t new_claims_;
  int threads_;
};

}  // namespace

std::unique_ptr<ProvisionWorkload> MakeProvisionScale(const BenchOptions& options) {
  return std::make_unique<ProvisionScale>(options);
}

}  // namespace bench
