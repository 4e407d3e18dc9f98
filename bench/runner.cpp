#include "bench/runner.h"

#include <cstdio>
#include <filesystem>
#include <thread>

#include "bench/api_requests.h"
#include "bench/contender.h"
#include "bench/csv_sink.h"
#include "bench/objects.h"
#include "bench/proc_stats.h"
#include "bench/va_observer.h"
#include "bench/workload.h"
#include "tests/support/control_plane.h"
#include "tests/support/process.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

// A control plane with its admin client (unthrottled: the load generator
// must never be the bottleneck) and the workload's objects in it.
struct Cluster {
  std::unique_ptr<testsupport::ControlPlane> plane;
  std::unique_ptr<kube::Client> admin;
};

base::Result<Cluster> StartCluster(Workload& workload) {
  Cluster cluster;
  auto plane = testsupport::ControlPlane::Start();
  if (!plane.ok()) return plane.error();
  cluster.plane = std::move(*plane);
  auto config = cluster.plane->AdminConfig();
  if (!config.ok()) return config.error();
  config->qps = 100000;
  config->burst = 100000;
  auto admin = kube::Client::Create(*config);
  if (!admin.ok()) return admin.error();
  cluster.admin = std::move(*admin);
  if (auto status = CreateCsiNode(*cluster.admin); !status.ok()) return status.error();
  auto start = Clock::now();
  if (auto status = workload.Populate(*cluster.admin); !status.ok()) return status.error();
  std::fprintf(stderr, "bench: populated in %.1f s\n", Seconds(Clock::now() - start));
  return cluster;
}

base::Result<std::unique_ptr<testsupport::Process>> StartDriver(const BenchOptions& options,
                                                                const std::string& dir) {
  const std::string socket = dir + "/csi.sock";
  std::string latency = std::to_string(options.latency.count()) + "ms";
  auto driver = testsupport::Process::Spawn(
      {.argv = {options.driver_bin, "--endpoint=" + socket, std::string("--name=") + kDriverName,
                std::string("--node-id=") + kNodeName, "--publish-latency=" + latency,
                "--unpublish-latency=" + latency},
       .log_file = dir + "/driver.log"});
  if (!driver.ok()) return driver.error();
  for (int i = 0; i < 200 && !std::filesystem::exists(socket); ++i)
    std::this_thread::sleep_for(50ms);
  if (!std::filesystem::exists(socket))
    return base::Error("driver did not start: " + (*driver)->LogTail(20));
  return driver;
}

base::Status RunOne(const BenchOptions& options, Workload& workload, Cluster& cluster,
                    const std::string& contender_kind, int rep, CsvSink& csv) {
  const std::string tag = contender_kind + "-" + std::to_string(rep);
  const std::string dir = options.work_dir + "/" + options.workload + "-lat" +
                          std::to_string(options.latency.count()) + "ms-qps" +
                          std::to_string(static_cast<int>(options.qps)) + "-" + tag;
  std::filesystem::create_directories(dir);
  auto driver = StartDriver(options, dir);
  if (!driver.ok()) return driver.error();

  RunContext ctx{.admin = *cluster.admin, .options = options, .tag = tag};
  if (auto status = workload.Prepare(ctx); !status.ok()) return status;
  auto observer = VaObserver::Start(*cluster.admin);
  if (!observer.ok()) return observer.error();
  ctx.observer = observer->get();
  auto before = ScrapeRequestCounts(*cluster.admin);
  if (!before.ok()) return before.error();

  ctx.started = Clock::now();
  auto contender = Contender::Start(contender_kind, options,
                                    {.attacher_kubeconfig = cluster.plane->attacher_kubeconfig(),
                                     .csi_socket = dir + "/csi.sock",
                                     .log_file = dir + "/attacher.log"});
  if (!contender.ok()) return contender.error();
  ctx.contender_pid = (*contender)->pid();
  auto figures = workload.Measure(ctx);
  auto proc = ReadProcSample(ctx.contender_pid);
  auto after = ScrapeRequestCounts(*cluster.admin);
  if (!figures.ok()) {
    return figures.error().Wrap(contender_kind + " run failed; attacher log tail:\n" +
                                (*contender)->LogTail());
  }
  (*contender)->Stop();
  observer->reset();

  for (const auto& [metric, value] : *figures) csv.Write(contender_kind, rep, metric, value);
  if (proc) {
    csv.Write(contender_kind, rep, "cpu_s", proc->cpu_seconds);
    csv.Write(contender_kind, rep, "peak_rss_mb", proc->peak_rss_kb / 1024.0);
    csv.Write(contender_kind, rep, "rss_mb", proc->rss_kb / 1024.0);
    csv.Write(contender_kind, rep, "rss_anon_mb", proc->rss_anon_kb / 1024.0);
  } else if (ctx.contender_pid != 0) {
    return base::Error(contender_kind + " exited during the run:\n" + (*contender)->LogTail());
  }
  if (after.ok()) {
    auto requests = Difference(*after, *before);
    csv.Write(contender_kind, rep, "api_requests", Total(requests));
    for (const auto& [key, count] : requests) csv.Write(contender_kind, rep, "api " + key, count);
  }
  std::fprintf(stderr, "bench: %s %s rep %d done\n", options.workload.c_str(),
               contender_kind.c_str(), rep);
  return {};
}

}  // namespace

base::Status RunCell(const BenchOptions& options) {
  auto workload = MakeWorkload(options);
  if (!workload.ok()) return workload.error();
  CsvSink csv(options.csv, options);
  if (!csv.ok()) return base::Error("cannot append to " + options.csv);
  std::optional<Cluster> shared;
  for (int rep = 1; rep <= options.reps; ++rep) {
    for (const auto& kind : options.contenders) {
      if (kind == "floor" && !(*workload)->HasFloor()) continue;
      std::optional<Cluster> fresh;
      Cluster* cluster = nullptr;
      if ((*workload)->SharesControlPlane() && shared) {
        cluster = &*shared;
      } else {
        auto started = StartCluster(**workload);
        if (!started.ok()) return started.error().Wrap("control plane");
        auto& slot = (*workload)->SharesControlPlane() ? shared : fresh;
        slot = std::move(*started);
        cluster = &*slot;
      }
      if (auto status = RunOne(options, **workload, *cluster, kind, rep, csv); !status.ok()) {
        return status;
      }
    }
  }
  return {};
}

}  // namespace bench
