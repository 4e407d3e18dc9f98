#include "bench/workload.h"

#include <algorithm>
#include <cstdio>

#include "bench/objects.h"
#include "bench/parallel.h"

namespace bench {

std::unique_ptr<Workload> MakeBacklog(const BenchOptions& options);
std::unique_ptr<Workload> MakeStream(const BenchOptions& options);
std::unique_ptr<Workload> MakeStorm(const BenchOptions& options);
std::unique_ptr<Workload> MakeScale(const BenchOptions& options);

base::Result<std::unique_ptr<Workload>> MakeWorkload(const BenchOptions& options) {
  if (options.workload == "backlog") return MakeBacklog(options);
  if (options.workload == "stream") return MakeStream(options);
  if (options.workload == "storm") return MakeStorm(options);
  if (options.workload == "scale") return MakeScale(options);
  return base::Error("unknown workload " + options.workload);
}

std::vector<std::string> Names(const std::string& prefix, size_t count) {
  std::vector<std::string> names;
  names.reserve(count);
  for (size_t i = 0; i < count; ++i) names.push_back(ObjectName(prefix, i));
  return names;
}

base::Status CreatePairs(kube::Client& admin, const std::vector<std::string>& names, int threads,
                         bool attached) {
  return ForEachParallel(names.size(), threads, [&](size_t i) {
    return attached ? CreateAttachedPair(admin, names[i]) : CreatePair(admin, names[i]);
  });
}

base::Status AttachOne(RunContext& ctx, const std::string& name) {
  if (auto status = CreatePair(ctx.admin, name); !status.ok()) return status;
  return WaitAllAttached(ctx, {name});
}

base::Status WaitAllAttached(RunContext& ctx, const std::vector<std::string>& names) {
  bool done =
      VaObserver::WaitUntil([&] { return ctx.observer->CountAttached(names) == names.size(); },
                            std::chrono::seconds(ctx.options.phase_timeout_s));
  if (done) return {};
  return base::Error("timed out: " + std::to_string(ctx.observer->CountAttached(names)) + " of " +
                     std::to_string(names.size()) + " attached");
}

base::Status WaitAllDeleted(RunContext& ctx, const std::vector<std::string>& names) {
  bool done =
      VaObserver::WaitUntil([&] { return ctx.observer->CountDeleted(names) == names.size(); },
                            std::chrono::seconds(ctx.options.phase_timeout_s));
  if (done) return {};
  return base::Error("timed out: " + std::to_string(ctx.observer->CountDeleted(names)) + " of " +
                     std::to_string(names.size()) + " detached and gone");
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double SecondsToLast(const std::vector<std::optional<Clock::time_point>>& stamps,
                     Clock::time_point from) {
  Clock::time_point last = from;
  for (const auto& stamp : stamps) {
    if (stamp) last = std::max(last, *stamp);
  }
  return Seconds(last - from);
}

std::vector<double> AttachLatenciesMs(const VaObserver& observer,
                                      const std::vector<std::string>& names,
                                      const std::vector<Clock::time_point>& created) {
  std::vector<double> latencies;
  for (size_t i = 0; i < names.size(); ++i) {
    if (auto attached = observer.AttachedAt(names[i])) {
      latencies.push_back(1000 * Seconds(*attached - created[i]));
    }
  }
  return latencies;
}

}  // namespace bench
