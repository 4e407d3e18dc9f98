#include "bench/resize_workload.h"

#include "base/quantity.h"
#include "bench/parallel.h"
#include "bench/resize_objects.h"

namespace bench {

std::unique_ptr<Workload> MakeResizeBacklog(const BenchOptions& options);
std::unique_ptr<Workload> MakeResizePods(const BenchOptions& options);

base::Result<std::unique_ptr<Workload>> MakeResizeWorkload(const BenchOptions& options) {
  if (options.workload == "resize-backlog") return MakeResizeBacklog(options);
  if (options.workload == "resize-pods") return MakeResizePods(options);
  return base::Error("unknown resizer workload " + options.workload);
}

base::Status ResizeWorkload::StartObserving(kube::Client& admin) {
  auto target = base::QuantityAsInt64(kResizeTo);
  if (!target.ok()) return target.error();
  auto observer = ResizeClaimObserver::Start(
      admin, [target = *target](const kube::PersistentVolumeClaim& claim) {
        auto capacity = base::QuantityAsInt64(claim.status.capacity_storage);
        return capacity.ok() && *capacity >= target;
      });
  if (!observer.ok()) return observer.error();
  observer_ = std::move(*observer);
  return {};
}

base::Status ResizeWorkload::ResizeOne(RunContext& ctx, const std::string& name) {
  if (auto status = RequestStorage(ctx.admin, name, kResizeTo); !status.ok()) return status;
  return WaitAllResized(ctx, {name});
}

base::Status ResizeWorkload::WaitAllResized(RunContext& ctx,
                                            const std::vector<std::string>& names) {
  return WaitForCount([&] { return observer_->CountDone(names); }, names.size(), "resized",
                      std::chrono::seconds(ctx.options.phase_timeout_s));
}

base::Status CreateResizableClaims(kube::Client& admin, const std::vector<std::string>& names,
                                   int threads) {
  return ForEachParallel(names.size(), threads,
                         [&](size_t i) { return CreateResizableClaim(admin, names[i]); });
}

}  // namespace bench
