// Provision workload 1, backlog: --n claims of the benchmark class (Delete,
// Immediate), annotated for the driver, exist before the provisioner
// starts. Figures: seconds from the start until the watch showed a PV for
// every claim (wall_s; PVs created with the claimRef, see
// provision_workload.h) and claims per second; per claim, milliseconds from
// the start to its PV (p50, p99). The runner then waits for the
// provisioners' queued Events (settle_s).
#include "bench/percentile.h"
#include "bench/provision_workload.h"

namespace bench {
namespace {

class ProvisionBacklog : public ProvisionWorkload {
 public:
  explicit ProvisionBacklog(const BenchOptions& options)
      : claims_(Names("claim", options.n)), threads_(options.creator_threads) {}

  size_t Objects() const override { return claims_.size(); }

  base::Status Populate(kube::Client& admin) override {
    auto volumes = CreatePendingClaims(admin, claims_, threads_);
    if (!volumes.ok()) return volumes.error();
    volumes_ = std::move(*volumes);
    return {};
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = WaitAllProvisioned(ctx, volumes_); !status.ok()) return status.error();
    const Stamps provisioned = volumes().DoneStamps(volumes_);
    const double wall_s = SecondsToLast(provisioned, ctx.started);
    auto latencies = LatenciesMs(provisioned, std::vector(volumes_.size(), ctx.started));
    return Figures{{"wall_s", wall_s},
                   {"provisioned_per_s", static_cast<double>(volumes_.size()) / wall_s},
                   {"provision_p50_ms", Percentile(latencies, 50)},
                   {"provision_p99_ms", Percentile(latencies, 99)}};
  }

 private:
  std::vector<std::string> claims_;
  std::vector<std::string> volumes_;  // the PVs' names, by claim
  int threads_;
};

}  // namespace

std::unique_ptr<ProvisionWorkload> MakeProvisionBacklog(const BenchOptions& options) {
  return std::make_unique<ProvisionBacklog>(options);
}

}  // namespace bench
