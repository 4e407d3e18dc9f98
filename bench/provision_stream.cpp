// Provision workload 2, stream: after a warm-up claim is provisioned, claims
// arrive at a fixed rate below saturation (1/s at QPS 5: a provisioner
// makes about 3 writes per claim, its PV and two Events; 10/s unthrottled)
// for --duration seconds. Figures: per claim, milliseconds from just before
// its create request to the watch showing its PV (p50, p99; every claim's in
// latencies.csv as series "provision").
#include <thread>

#include "bench/percentile.h"
#include "bench/provision_objects.h"
#include "bench/provision_workload.h"

namespace bench {
namespace {

class ProvisionStream : public ProvisionWorkload {
 public:
  explicit ProvisionStream(const BenchOptions& options)
      : interval_(1.0 / options.StreamRate(1.0, 10.0)),
        claims_(Names("stream", static_cast<size_t>(options.duration_s / interval_.count()))) {}

  size_t Objects() const override { return claims_.size() + 1; }
  base::Status Populate(kube::Client& admin) override { return {}; }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto warm = ProvisionOne(ctx, "warmup"); !warm.ok()) return warm.error();
    std::vector<Clock::time_point> created(claims_.size());
    std::vector<std::string> volumes(claims_.size());
    const auto start = Clock::now();
    for (size_t i = 0; i < claims_.size(); ++i) {
      // An absolute schedule: a slow create does not shift later arrivals.
      std::this_thread::sleep_until(
          start + std::chrono::duration_cast<Clock::duration>(interval_ * static_cast<double>(i)));
      created[i] = Clock::now();
      auto volume = CreatePendingClaim(ctx.admin, claims_[i]);
      if (!volume.ok()) return volume.error();
      volumes[i] = std::move(*volume);
    }
    if (auto status = WaitAllProvisioned(ctx, volumes); !status.ok()) return status.error();
    auto latencies =
        RecordLatencies(ctx, "provision", this->volumes().DoneStamps(volumes), created);
    return Figures{{"claims", static_cast<double>(claims_.size())},
                   {"rate_per_s", 1.0 / interval_.count()},
                   {"provision_p50_ms", Percentile(latencies, 50)},
                   {"provision_p99_ms", Percentile(latencies, 99)},
                   {"wall_s", Seconds(Clock::now() - start)}};
  }

 private:
  const std::chrono::duration<double> interval_;
  std::vector<std::string> claims_;
};

}  // namespace

std::unique_ptr<ProvisionWorkload> MakeProvisionStream(const BenchOptions& options) {
  return std::make_unique<ProvisionStream>(options);
}

}  // namespace bench
