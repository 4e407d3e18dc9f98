#include "bench/runner.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "bench/api_requests.h"
#include "bench/contender.h"
#include "bench/csv_sink.h"
#include "bench/driver_log.h"
#include "bench/objects.h"
#include "bench/proc_stats.h"
#include "bench/workload.h"
#include "tests/support/process.h"

namespace bench {
namespace {

using namespace std::chrono_literals;

// Runs a garbage collection in the control plane's kube-apiserver (Go's pprof
// heap handler collects first when asked gc=1; profiling is on by default).
// Every contender then starts against a freshly collected server: a server GC
// that overlapped a start made a scale sync twice as long, every second run
// (bench/history/notebook.md, 2026-11-28).
base::Status CollectServerGarbage(kube::Client& admin) {
  auto profile = admin.Request("GET", "/debug/pprof/heap?gc=1", {}, {}, "*/*");
  if (!profile.ok()) return profile.error().Wrap("collecting the API server's garbage");
  return {};
}

base::Result<Cluster> StartCluster(Stack& stack) {
  Cluster cluster;
  auto plane = testsupport::ControlPlane::Start(stack.PlaneOptions());
  if (!plane.ok()) return plane.error();
  cluster.plane = std::move(*plane);
  auto config = cluster.plane->AdminConfig();
  if (!config.ok()) return config.error();
  config->qps = 100000;
  config->burst = 100000;
  auto admin = kube::Client::Create(*config);
  if (!admin.ok()) return admin.error();
  cluster.admin = std::move(*admin);
  if (auto status = stack.SetUpCluster(cluster); !status.ok()) return status.error();
  auto start = Clock::now();
  if (auto status = stack.workload().Populate(*cluster.admin); !status.ok()) {
    return status.error();
  }
  std::fprintf(stderr, "bench: populated in %.1f s\n", Seconds(Clock::now() - start));
  return cluster;
}

base::Result<std::unique_ptr<testsupport::Process>> StartDriver(const BenchOptions& options,
                                                                Stack& stack, const RunDirs& dirs) {
  auto extra = stack.DriverArgs(dirs.dir);
  if (!extra.ok()) return extra.error();
  std::vector<std::string> argv = {options.driver_bin, "--endpoint=" + dirs.csi_socket,
                                   std::string("--name=") + kDriverName};
  argv.insert(argv.end(), extra->begin(), extra->end());
  auto driver = testsupport::Process::Spawn({.argv = argv, .log_file = dirs.dir + "/driver.log"});
  if (!driver.ok()) return driver.error();
  for (int i = 0; i < 200 && !std::filesystem::exists(dirs.csi_socket); ++i)
    std::this_thread::sleep_for(50ms);
  if (!std::filesystem::exists(dirs.csi_socket))
    return base::Error("driver did not start: " + (*driver)->LogTail(20));
  return driver;
}

std::string Prefixed(const std::string& role, const std::string& metric) {
  return role.empty() ? metric : role + "_" + metric;
}

// A contender of several processes (the snapshot pair, the pod stack's four
// sidecars) against one of a single process (csi-sidecars) compares as a
// whole: its CPU, RSS and connections summed, and its largest process's peak
// RSS (what one Pod's largest container needs). Every process is alive here.
void WriteTotals(CsvSink& csv, const std::string& kind, int rep,
                 const std::vector<std::pair<std::string, std::optional<ProcSample>>>& procs) {
  double cpu_s = 0, peak_kb = 0, max_peak_kb = 0, anon_kb = 0, connections = 0;
  for (const auto& [role, proc] : procs) {
    cpu_s += proc->cpu_seconds;
    peak_kb += static_cast<double>(proc->peak_rss_kb);
    max_peak_kb = std::max(max_peak_kb, static_cast<double>(proc->peak_rss_kb));
    anon_kb += static_cast<double>(proc->rss_anon_kb);
    connections += proc->tcp_connections;
  }
  csv.Write(kind, rep, "all_cpu_s", cpu_s);
  csv.Write(kind, rep, "all_peak_rss_mb", peak_kb / 1024.0);
  csv.Write(kind, rep, "max_peak_rss_mb", max_peak_kb / 1024.0);
  csv.Write(kind, rep, "all_rss_anon_mb", anon_kb / 1024.0);
  csv.Write(kind, rep, "all_tcp_connections", connections);
}

base::Status RunOne(const BenchOptions& options, Stack& stack, Cluster& cluster,
                    const std::string& contender_kind, int rep, CsvSink& csv,
                    LatencySink& latencies) {
  Workload& workload = stack.workload();
  const std::string tag = contender_kind + "-" + std::to_string(rep);
  RunDirs run;
  // Absolute: the driver takes a socket path only as /path or unix://path.
  run.dir = std::filesystem::absolute(options.work_dir).string() + "/" + options.workload + "-lat" +
            std::to_string(options.latency.count()) + "ms-qps" +
            std::to_string(static_cast<int>(options.qps)) + "-" + tag;
  run.csi_socket = run.dir + "/csi.sock";
  // A Unix socket's path has at most 107 bytes (sun_path): a long results
  // directory's run gets its socket in the temp directory instead (the
  // pod-scale cell's csi-sidecars run could not start its driver).
  if (run.csi_socket.size() > 107) {
    run.csi_socket = (std::filesystem::temp_directory_path() /
                      ("bench-" + std::to_string(getpid()) + "-" + tag + ".sock"))
                         .string();
  }
  std::filesystem::create_directories(run.dir);
  auto driver = StartDriver(options, stack, run);
  if (!driver.ok()) return driver.error();

  RunContext ctx{.admin = *cluster.admin,
                 .options = options,
                 .tag = tag,
                 .driver_log = run.dir + "/driver.log"};
  if (auto status = workload.Prepare(ctx); !status.ok()) return status;
  if (auto status = workload.StartObserving(*cluster.admin); !status.ok()) return status;
  auto before = ScrapeRequestCounts(*cluster.admin, stack.Requests());
  if (!before.ok()) return before.error();
  if (auto status = CollectServerGarbage(*cluster.admin); !status.ok()) return status;

  ctx.started = Clock::now();
  auto contender = stack.StartContender(contender_kind, cluster, run);
  if (!contender.ok()) return contender.error();
  ctx.pids = (*contender)->Pids();
  auto figures = workload.Measure(ctx);
  if (figures.ok() && workload.SettlesRequests()) {
    const auto measured = Clock::now();
    auto settled = RequestsSettled(*cluster.admin, stack.Requests(), 3s,
                                   std::chrono::seconds(options.phase_timeout_s));
    if (!settled.ok()) return settled.error().Wrap(contender_kind + " run");
    figures->emplace_back("settle_s", Seconds(*settled - measured));
  }
  std::vector<std::pair<std::string, std::optional<ProcSample>>> procs;
  for (const auto& member : (*contender)->Processes()) {
    procs.emplace_back(member.role, ReadProcSample(member.pid));
  }
  auto after = ScrapeRequestCounts(*cluster.admin, stack.Requests());
  if (!figures.ok()) {
    return figures.error().Wrap(contender_kind + " run failed; log tails:\n" +
                                (*contender)->LogTail());
  }
  (*contender)->Stop();
  workload.StopObserving();
  driver->reset();

  for (const auto& [metric, value] : *figures) csv.Write(contender_kind, rep, metric, value);
  for (const auto& series : ctx.latencies) {
    if (auto status = latencies.Write(contender_kind, rep, series); !status.ok()) return status;
  }
  for (const auto& [role, proc] : procs) {
    if (!proc) {
      return base::Error(contender_kind + " " + role + " exited during the run:\n" +
                         (*contender)->LogTail());
    }
    csv.Write(contender_kind, rep, Prefixed(role, "cpu_s"), proc->cpu_seconds);
    csv.Write(contender_kind, rep, Prefixed(role, "peak_rss_mb"), proc->peak_rss_kb / 1024.0);
    csv.Write(contender_kind, rep, Prefixed(role, "rss_mb"), proc->rss_kb / 1024.0);
    csv.Write(contender_kind, rep, Prefixed(role, "rss_anon_mb"), proc->rss_anon_kb / 1024.0);
    csv.Write(contender_kind, rep, Prefixed(role, "context_switches"), proc->context_switches);
    csv.Write(contender_kind, rep, Prefixed(role, "tcp_connections"), proc->tcp_connections);
  }
  if (std::any_of(procs.begin(), procs.end(), [](const auto& p) { return !p.first.empty(); })) {
    WriteTotals(csv, contender_kind, rep, procs);
  }
  const double objects = static_cast<double>(workload.Objects());
  if (after.ok()) {
    auto requests = Difference(*after, *before);
    csv.Write(contender_kind, rep, "api_requests", Total(requests));
    csv.Write(contender_kind, rep, "api_writes", ObjectWrites(requests));
    csv.Write(contender_kind, rep, "api_event_writes", EventWrites(requests));
    if (objects > 0) {
      csv.Write(contender_kind, rep, "api_writes_per_object", ObjectWrites(requests) / objects);
    }
    for (const auto& [key, count] : requests) csv.Write(contender_kind, rep, "api " + key, count);
  }
  auto calls = ReadDriverLog(ctx.driver_log);
  if (calls.ok()) {
    if (objects > 0) {
      csv.Write(contender_kind, rep, "csi_ops_per_object", OperationCalls(*calls) / objects);
    }
    for (const auto& [method, count] : calls->calls) {
      csv.Write(contender_kind, rep, "csi " + method, count);
    }
  }
  std::fprintf(stderr, "bench: %s %s rep %d done\n", options.workload.c_str(),
               contender_kind.c_str(), rep);
  return {};
}

}  // namespace

base::Status RunCell(const BenchOptions& options, Stack& stack) {
  CsvSink csv(options.csv, options);
  if (!csv.ok()) return base::Error("cannot append to " + options.csv);
  LatencySink latencies(options.latencies_csv, options);
  Workload& workload = stack.workload();
  std::optional<Cluster> shared;
  for (int rep = 1; rep <= options.reps; ++rep) {
    for (const auto& kind : options.contenders) {
      if (kind == "floor" && !workload.HasFloor()) continue;
      std::optional<Cluster> fresh;
      Cluster* cluster = nullptr;
      if (workload.SharesControlPlane() && shared) {
        cluster = &*shared;
      } else {
        auto started = StartCluster(stack);
        if (!started.ok()) return started.error().Wrap("control plane");
        auto& slot = workload.SharesControlPlane() ? shared : fresh;
        slot = std::move(*started);
        cluster = &*slot;
      }
      if (auto status = RunOne(options, stack, *cluster, kind, rep, csv, latencies); !status.ok()) {
        return status;
      }
    }
  }
  return {};
}

}  // namespace bench
