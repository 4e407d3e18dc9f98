// Workload 3, mixed storm (external-attacher#761): --n attached VAs exist;
// after a warm-up attach all of them are deleted (detaches queued), then
// --attaches new PV + VA pairs arrive. Figures: the new VAs' attach latency
// (VA create request to attached) and the time until all detaches were gone.
#include "bench/attach_workload.h"
#include "bench/objects.h"
#include "bench/parallel.h"
#include "bench/percentile.h"

namespace bench {
namespace {

class Storm : public AttachWorkload {
 public:
  explicit Storm(const BenchOptions& options)
      : detaches_(Names("old", options.n)),
        attaches_(Names("new", options.attaches)),
        threads_(options.creator_threads) {}

  base::Status Populate(kube::Client& admin) override {
    return CreatePairs(admin, detaches_, threads_, /*attached=*/true);
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = AttachOne(ctx, "warmup-" + ctx.tag); !status.ok()) return status.error();
    auto delete_start = Clock::now();
    auto deleted = ForEachParallel(detaches_.size(), threads_,
                                   [&](size_t i) { return DeleteVa(ctx.admin, detaches_[i]); });
    if (!deleted.ok()) return deleted.error();
    std::vector<Clock::time_point> created(attaches_.size());
    auto arrived = ForEachParallel(attaches_.size(), 4, [&](size_t i) {
      if (auto status = CreatePv(ctx.admin, attaches_[i]); !status.ok()) return status;
      created[i] = Clock::now();
      return CreateVa(ctx.admin, attaches_[i]);
    });
    if (!arrived.ok()) return arrived.error();
    if (auto status = WaitAllAttached(ctx, attaches_); !status.ok()) return status.error();
    auto latencies = LatenciesMs(observer().DoneStamps(attaches_), created);
    if (auto status = WaitAllDeleted(ctx, detaches_); !status.ok()) return status.error();
    return Figures{
        {"attach_p50_ms", Percentile(latencies, 50)},
        {"attach_p99_ms", Percentile(latencies, 99)},
        {"detach_all_s", SecondsToLast(observer().DeletedStamps(detaches_), delete_start)},
        {"wall_s", Seconds(Clock::now() - delete_start)}};
  }

 private:
  size_t Objects() const override { return detaches_.size() + attaches_.size(); }

  std::vector<std::string> detaches_;
  std::vector<std::string> attaches_;
  int threads_;
};

}  // namespace

std::unique_ptr<Workload> MakeStorm(const BenchOptions& options) {
  return std::make_unique<Storm>(options);
}

}  // namespace bench
