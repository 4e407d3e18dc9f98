// Workload 1, backlog: N PVs + VAs exist before the attacher starts. Figures:
// seconds from the attacher's start until the watch showed all N attached,
// then seconds from the first delete until all N were gone (detached, the
// finalizer removed, the object deleted).
#include "bench/attach_workload.h"
#include "bench/objects.h"
#include "bench/parallel.h"

namespace bench {
namespace {

class Backlog : public AttachWorkload {
 public:
  explicit Backlog(const BenchOptions& options)
      : names_(Names("va", options.n)), threads_(options.creator_threads) {}

  base::Status Populate(kube::Client& admin) override {
    return CreatePairs(admin, names_, threads_, /*attached=*/false);
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = WaitAllAttached(ctx, names_); !status.ok()) return status.error();
    double attach_s = SecondsToLast(observer().DoneStamps(names_), ctx.started);
    auto delete_start = Clock::now();
    auto deleted = ForEachParallel(names_.size(), ctx.options.creator_threads,
                                   [&](size_t i) { return DeleteVa(ctx.admin, names_[i]); });
    if (!deleted.ok()) return deleted.error();
    if (auto status = WaitAllDeleted(ctx, names_); !status.ok()) return status.error();
    double detach_s = SecondsToLast(observer().DeletedStamps(names_), delete_start);
    double n = static_cast<double>(names_.size());
    return Figures{{"attach_s", attach_s},
                   {"attach_va_per_s", n / attach_s},
                   {"detach_s", detach_s},
                   {"wall_s", attach_s + detach_s}};
  }

 private:
  size_t Objects() const override { return names_.size(); }

  std::vector<std::string> names_;
  int threads_;
};

}  // namespace

std::unique_ptr<Workload> MakeBacklog(const BenchOptions& options) {
  return std::make_unique<Backlog>(options);
}

}  // namespace bench
