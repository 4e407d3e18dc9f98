// Workload 4, scale: --n VAs exist already attached (finalizers, annotation,
// status), so a correct attacher has nothing to write. One populated control
// plane serves every run of the cell. Figures: seconds from start until a
// marker VA, created right after the start, is attached (it queues behind the
// whole initial list: synced), and until the attacher's CPU time stops
// growing (idle: under 20 ms of CPU in a 2 s window). The runner adds peak
// RSS and the RSS at the end (3 s after idle).
#include <thread>

#include "bench/attach_workload.h"
#include "bench/objects.h"
#include "bench/proc_stats.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

class Scale : public AttachWorkload {
 public:
  explicit Scale(const BenchOptions& options)
      : names_(Names("va", options.n)), threads_(options.creator_threads) {}

  bool SharesControlPlane() const override { return true; }
  bool HasFloor() const override { return false; }

  base::Status Populate(kube::Client& admin) override {
    return CreatePairs(admin, names_, threads_, /*attached=*/true);
  }

  base::Status Prepare(RunContext& ctx) override { return CreatePv(ctx.admin, Marker(ctx)); }

  base::Result<Figures> Measure(RunContext& ctx) override {
    const std::string marker = Marker(ctx);
    if (auto status = CreateVa(ctx.admin, marker); !status.ok()) return status.error();
    if (auto status = WaitAllAttached(ctx, {marker}); !status.ok()) return status.error();
    double synced_s = Seconds(*observer().DoneAt(marker) - ctx.started);
    auto idle = IdleSince(ctx.pids, std::chrono::seconds(ctx.options.phase_timeout_s));
    if (!idle) return base::Error("attacher never became idle (or exited)");
    std::this_thread::sleep_for(3s);
    return Figures{{"synced_s", synced_s}, {"idle_s", Seconds(*idle - ctx.started)}};
  }

 private:
  static std::string Marker(const RunContext& ctx) { return "zzz-marker-" + ctx.tag; }

  std::vector<std::string> names_;
  int threads_;
};

}  // namespace

std::unique_ptr<Workload> MakeScale(const BenchOptions& options) {
  return std::make_unique<Scale>(options);
}

}  // namespace bench
