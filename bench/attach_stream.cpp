// Workload 2, steady stream: after a warm-up attach, PV + VA pairs arrive at a
// fixed rate below saturation (1/s at QPS 5: 3 writes per attach stay under
// the limit; 20/s unthrottled) for --duration seconds. Figures: per-VA latency
// from just before the VA's create request to the watch showing it attached
// (p50, p99; every VA's in latencies.csv as series "attach").
#include <thread>

#include "bench/attach_workload.h"
#include "bench/objects.h"
#include "bench/percentile.h"

namespace bench {
namespace {

class Stream : public AttachWorkload {
 public:
  explicit Stream(const BenchOptions& options)
      : names_(Names("stream",
                     static_cast<size_t>(options.StreamRate(1.0, 20.0) * options.duration_s))),
        interval_(std::chrono::duration<double>(1.0 / options.StreamRate(1.0, 20.0))) {}

  base::Status Populate(kube::Client& admin) override { return {}; }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = AttachOne(ctx, "warmup-" + ctx.tag); !status.ok()) return status.error();
    std::vector<Clock::time_point> created(names_.size());
    auto start = Clock::now();
    for (size_t i = 0; i < names_.size(); ++i) {
      // An absolute schedule: a slow create does not shift later arrivals.
      std::this_thread::sleep_until(
          start + std::chrono::duration_cast<Clock::duration>(interval_ * static_cast<double>(i)));
      if (auto status = CreatePv(ctx.admin, names_[i]); !status.ok()) return status.error();
      created[i] = Clock::now();
      if (auto status = CreateVa(ctx.admin, names_[i]); !status.ok()) return status.error();
    }
    if (auto status = WaitAllAttached(ctx, names_); !status.ok()) return status.error();
    auto latencies = RecordLatencies(ctx, "attach", observer().DoneStamps(names_), created);
    return Figures{{"vas", static_cast<double>(names_.size())},
                   {"rate_per_s", 1.0 / interval_.count()},
                   {"attach_p50_ms", Percentile(latencies, 50)},
                   {"attach_p99_ms", Percentile(latencies, 99)},
                   {"wall_s", Seconds(Clock::now() - start)}};
  }

 private:
  size_t Objects() const override { return names_.size(); }

  std::vector<std::string> names_;
  std::chrono::duration<double> interval_;
};

}  // namespace

std::unique_ptr<Workload> MakeStream(const BenchOptions& options) {
  return std::make_unique<Stream>(options);
}

}  // namespace bench
