// Resize workload 2, pods: what the in-use gate's Pod cache costs (upstream
// #211). --n running Pods, each using a claim (CreateRunningPodUsing: whole
// Pods as an application's look), exist before the resizer starts; a
// resizer with --handle-volume-inuse-error (the default) lists and watches
// every Pod before its workers start. One populated control plane serves
// every run of the cell; each run adds a warm-up claim of its own. Figures:
// seconds from the start until the warm-up claim is expanded (synced_s: the
// Pods are cached by then), and until the resizer's CPU time stops growing
// (idle_s). The runner adds the peak RSS and the RSS at the end (3 s after
// idle), whose difference from a run with --n=0 is the Pod cache.
#include <thread>

#include "bench/parallel.h"
#include "bench/proc_stats.h"
#include "bench/resize_objects.h"
#include "bench/resize_workload.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

class ResizePods : public ResizeWorkload {
 public:
  explicit ResizePods(const BenchOptions& options)
      : names_(Names("pod", options.n)), threads_(options.creator_threads) {}

  bool SharesControlPlane() const override { return true; }
  bool HasFloor() const override { return false; }  // the floor keeps no Pods

  base::Status Populate(kube::Client& admin) override {
    return ForEachParallel(names_.size(), threads_, [&](size_t i) {
      return CreateRunningPodUsing(admin, names_[i], "data-" + names_[i]);
    });
  }

  base::Status Prepare(RunContext& ctx) override {
    return CreateResizableClaim(ctx.admin, WarmUp(ctx));
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = ResizeOne(ctx, WarmUp(ctx)); !status.ok()) return status.error();
    const double synced_s = SecondsToLast(observer().DoneStamps({WarmUp(ctx)}), ctx.started);
    auto idle = IdleSince(ctx.pids, std::chrono::seconds(ctx.options.phase_timeout_s));
    if (!idle) return base::Error("the resizer never became idle (or it exited)");
    std::this_thread::sleep_for(3s);
    return Figures{{"synced_s", synced_s}, {"idle_s", Seconds(*idle - ctx.started)}};
  }

 private:
  static std::string WarmUp(const RunContext& ctx) { return "warmup-" + ctx.tag; }

  std::vector<std::string> names_;
  int threads_;
};

}  // namespace

std::unique_ptr<Workload> MakeResizePods(const BenchOptions& options) {
  return std::make_unique<ResizePods>(options);
}

}  // namespace bench
