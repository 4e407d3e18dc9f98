// Workload 1, backlog: N PVs + VAs exist before the attacher starts. Figures:
// seconds from the attacher's start until the watch showed all N attached,
// then seconds from the first delete until all N were gone (detached, the
// finalizer removed, the object deleted).
#include "bench/objects.h"
#include "bench/parallel.h"
#include "bench/workload.h"

namespace bench {
namespace {

class Backlog : public Workload {
 public:
  explicit Backlog(const BenchOptions& options)
      : names_(Names("va", options.n)), threads_(options.creator_threads) {}

  base::Status Populate(kube::Client& admin) override {
    return CreatePairs(admin, names_, threads_, /*attached=*/false);
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = WaitAllAttached(ctx, names_); !status.ok()) return status.error();
    double attach_s = SecondsToLast(AttachStamps(ctx), ctx.started);
    auto delete_start = Clock::now();
    auto deleted = ForEachParallel(names_.size(), ctx.options.creator_threads,
                                   [&](size_t i) { return DeleteVa(ctx.admin, names_[i]); });
    if (!deleted.ok()) return deleted.error();
    if (auto status = WaitAllDeleted(ctx, names_); !status.ok()) return status.error();
    std::vector<std::optional<Clock::time_point>> gone;
    for (const auto& name : names_) gone.push_back(ctx.observer->DeletedAt(name));
    double detach_s = SecondsToLast(gone, delete_start);
    double n = static_cast<double>(names_.size());
    return Figures{{"attach_s", attach_s},
                   {"attach_va_per_s", n / attach_s},
                   {"detach_s", detach_s},
                   {"wall_s", attach_s + detach_s}};
  }

 private:
  std::vector<std::optional<Clock::time_point>> AttachStamps(RunContext& ctx) const {
    std::vector<std::optional<Clock::time_point>> stamps;
    for (const auto& name : names_) stamps.push_back(ctx.observer->AttachedAt(name));
    return stamps;
  }

  std::vector<std::string> names_;
  int threads_;
};

}  // namespace

std::unique_ptr<Workload> MakeBacklog(const BenchOptions& options) {
  return std::make_unique<Backlog>(options);
}

}  // namespace bench
