#include "bench/provision_workload.h"

#include "bench/parallel.h"
#include "bench/percentile.h"
#include "bench/provision_objects.h"

namespace bench {

std::unique_ptr<ProvisionWorkload> MakeProvisionBacklog(const BenchOptions& options);
std::unique_ptr<ProvisionWorkload> MakeProvisionStream(const BenchOptions& options);
std::unique_ptr<ProvisionWorkload> MakeProvisionScale(const BenchOptions& options);
std::unique_ptr<ProvisionWorkload> MakeProvisionCapacity(const BenchOptions& options);

base::Result<std::unique_ptr<ProvisionWorkload>> MakeProvisionWorkload(
    const BenchOptions& options) {
  if (options.workload == "prov-backlog") return MakeProvisionBacklog(options);
  if (options.workload == "prov-stream") return MakeProvisionStream(options);
  if (options.workload == "prov-scale") return MakeProvisionScale(options);
  if (options.workload == "prov-capacity") return MakeProvisionCapacity(options);
  return base::Error("unknown provisioner workload " + options.workload);
}

base::Status ProvisionWorkload::StartObserving(kube::Client& admin) {
  auto observer = VolumeObserver::Start(admin, [](const kube::PersistentVolume& volume) {
    return volume.spec.claim_ref &&
           "pvc-" + volume.spec.claim_ref->uid.str() == volume.metadata.name;
  });
  if (!observer.ok()) return observer.error();
  observer_ = std::move(*observer);
  return {};
}

base::Result<std::string> ProvisionWorkload::ProvisionOne(RunContext& ctx,
                                                          const std::string& claim) {
  auto volume = CreatePendingClaim(ctx.admin, claim);
  if (!volume.ok()) return volume.error();
  if (auto status = WaitAllProvisioned(ctx, {*volume}); !status.ok()) return status.error();
  return *volume;
}

base::Status ProvisionWorkload::WaitAllProvisioned(RunContext& ctx,
                                                   const std::vector<std::string>& volumes) {
  return WaitForCount([&] { return observer_->CountDone(volumes); }, volumes.size(), "provisioned",
                      std::chrono::seconds(ctx.options.phase_timeout_s));
}

base::Result<Figures> ProvisionWorkload::ProvisionAtOnce(RunContext& ctx,
                                                         const std::vector<std::string>& claims) {
  std::vector<Clock::time_point> created;
  const auto start = Clock::now();
  auto volumes = CreatePendingClaims(ctx.admin, claims, ctx.options.creator_threads, &created);
  if (!volumes.ok()) return volumes.error();
  if (auto status = WaitAllProvisioned(ctx, *volumes); !status.ok()) return status.error();
  const Stamps provisioned = observer_->DoneStamps(*volumes);
  const double wall_s = SecondsToLast(provisioned, start);
  auto latencies = LatenciesMs(provisioned, created);
  return Figures{{"wall_s", wall_s},
                 {"provisioned_per_s", static_cast<double>(claims.size()) / wall_s},
                 {"provision_p50_ms", Percentile(latencies, 50)},
                 {"provision_p99_ms", Percentile(latencies, 99)}};
}

base::Result<std::vector<std::string>> CreatePendingClaims(
    kube::Client& admin, const std::vector<std::string>& names, int threads,
    std::vector<Clock::time_point>* created) {
  std::vector<std::string> volumes(names.size());
  if (created) created->resize(names.size());
  auto sent = ForEachParallel(names.size(), threads, [&](size_t i) -> base::Status {
    if (created) (*created)[i] = Clock::now();
    auto volume = CreatePendingClaim(admin, names[i]);
    if (!volume.ok()) return volume.error();
    volumes[i] = std::move(*volume);
    return {};
  });
  if (!sent.ok()) return sent.error();
  return volumes;
}

}  // namespace bench
