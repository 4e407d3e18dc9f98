// Resize workload 1, backlog: --n claims of kResizeFrom, Bound, and a
// warm-up claim exist before the resizer starts. Once the warm-up claim is
// expanded (the contender is up and has listed everything), every claim's
// request is raised to kResizeTo at once (--creator-threads raises in
// flight from the unthrottled admin client). Controller-only expansion: the
// driver asks for no node step. Figures: seconds from the start until the
// warm-up claim was expanded (startup_s); seconds from the first raise until
// the watch showed every claim's status.capacity at kResizeTo (wall_s) and
// claims per second; per claim, milliseconds from just before its raise to
// its new capacity (p50, p99); how long sending the raises took (raise_s).
// The runner then waits for the resizer's queued Events (settle_s).
#include "bench/parallel.h"
#include "bench/percentile.h"
#include "bench/resize_objects.h"
#include "bench/resize_workload.h"

namespace bench {
namespace {

constexpr const char* kWarmUpClaim = "claim-warmup";

class ResizeBacklog : public ResizeWorkload {
 public:
  explicit ResizeBacklog(const BenchOptions& options)
      : names_(Names("claim", options.n)), threads_(options.creator_threads) {}

  size_t Objects() const override { return names_.size() + 1; }
  // The resizers' Events wait behind their status writes at QPS 5.
  bool SettlesRequests() const override { return true; }

  base::Status Populate(kube::Client& admin) override {
    std::vector<std::string> all = names_;
    all.push_back(kWarmUpClaim);
    return CreateResizableClaims(admin, all, threads_);
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = ResizeOne(ctx, kWarmUpClaim); !status.ok()) return status.error();
    const double startup_s = SecondsToLast(observer().DoneStamps({kWarmUpClaim}), ctx.started);
    std::vector<Clock::time_point> raised(names_.size());
    const auto start = Clock::now();
    auto sent = ForEachParallel(names_.size(), threads_, [&](size_t i) {
      raised[i] = Clock::now();
      return RequestStorage(ctx.admin, names_[i], kResizeTo);
    });
    if (!sent.ok()) return sent.error();
    const double raise_s = Seconds(Clock::now() - start);
    if (auto status = WaitAllResized(ctx, names_); !status.ok()) return status.error();
    const Stamps resized = observer().DoneStamps(names_);
    const double wall_s = SecondsToLast(resized, start);
    auto latencies = LatenciesMs(resized, raised);
    return Figures{{"startup_s", startup_s},
                   {"raise_s", raise_s},
                   {"wall_s", wall_s},
                   {"resized_per_s", static_cast<double>(names_.size()) / wall_s},
                   {"resize_p50_ms", Percentile(latencies, 50)},
                   {"resize_p99_ms", Percentile(latencies, 99)}};
  }

 private:
  std::vector<std::string> names_;
  int threads_;
};

}  // namespace

std::unique_ptr<Workload> MakeResizeBacklog(const BenchOptions& options) {
  return std::make_unique<ResizeBacklog>(options);
}

}  // namespace bench
