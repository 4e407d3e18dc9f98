#include "bench/attach_workload.h"

#include "bench/objects.h"
#include "bench/parallel.h"

namespace bench {

std::unique_ptr<Workload> MakeBacklog(const BenchOptions& options);
std::unique_ptr<Workload> MakeStream(const BenchOptions& options);
std::unique_ptr<Workload> MakeStorm(const BenchOptions& options);
std::unique_ptr<Workload> MakeScale(const BenchOptions& options);

base::Result<std::unique_ptr<Workload>> MakeAttachWorkload(const BenchOptions& options) {
  if (options.workload == "backlog") return MakeBacklog(options);
  if (options.workload == "stream") return MakeStream(options);
  if (options.workload == "storm") return MakeStorm(options);
  if (options.workload == "scale") return MakeScale(options);
  return base::Error("unknown attacher workload " + options.workload);
}

base::Status AttachWorkload::StartObserving(kube::Client& admin) {
  auto observer =
      VaObserver::Start(admin, [](const kube::VolumeAttachment& va) { return va.status.attached; });
  if (!observer.ok()) return observer.error();
  observer_ = std::move(*observer);
  return {};
}

base::Status CreatePairs(kube::Client& admin, const std::vector<std::string>& names, int threads,
                         bool attached) {
  return ForEachParallel(names.size(), threads, [&](size_t i) {
    return attached ? CreateAttachedPair(admin, names[i]) : CreatePair(admin, names[i]);
  });
}

base::Status AttachWorkload::AttachOne(RunContext& ctx, const std::string& name) {
  if (auto status = CreatePair(ctx.admin, name); !status.ok()) return status;
  return WaitAllAttached(ctx, {name});
}

base::Status AttachWorkload::WaitAllAttached(RunContext& ctx,
                                             const std::vector<std::string>& names) {
  return WaitForCount([&] { return observer_->CountDone(names); }, names.size(), "attached",
                      std::chrono::seconds(ctx.options.phase_timeout_s));
}

base::Status AttachWorkload::WaitAllDeleted(RunContext& ctx,
                                            const std::vector<std::string>& names) {
  return WaitForCount([&] { return observer_->CountDeleted(names); }, names.size(),
                      "detached and gone", std::chrono::seconds(ctx.options.phase_timeout_s));
}

}  // namespace bench
