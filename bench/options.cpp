#include "bench/options.h"

#include <filesystem>
#include <sstream>
#include <string_view>

namespace bench {
namespace {

std::vector<std::string> SplitCommas(const std::string& value) {
  std::vector<std::string> parts;
  std::istringstream in(value);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

}  // namespace

const char* Usage() {
  return "usage: attacher-bench --workload=backlog|stream|storm|scale --csv=FILE --work-dir=DIR\n"
         "       snapshot-bench --workload=snap-backlog|snap-stream|snap-readiness|snap-scale\n"
         "                      --csv=FILE --work-dir=DIR --crds-dir=DIR\n"
         "       resize-bench --workload=resize-backlog|resize-pods --csv=FILE --work-dir=DIR\n"
         "       provision-bench --workload=prov-backlog|prov-stream|prov-scale|prov-capacity\n"
         "                       --csv=FILE --work-dir=DIR [--existing=20000]\n"
         "       pod-bench --workload=pod-mix|pod-scale --csv=FILE --work-dir=DIR --crds-dir=DIR\n"
         "                 [--existing=20000] [--upstream-{attacher,provisioner,resizer,\n"
         "                 snapshotter}-bin=PATH] (contenders upstream4,ours4,csi-sidecars)\n"
         "  [--n=2000] [--attaches=100] [--rate=0] [--duration=60] [--latency-ms=0]\n"
         "  [--ready-after=3] [--qps=5] [--burst=10] [--workers=10] [--timeout=30s] [--reps=1]\n"
         "  [--contenders=ours,upstream,floor] (snapshot-bench also: mixed)\n"
         "  [--upstream-bin=PATH] [--ours-bin=PATH] (the attacher, csi-snapshotter, resizer or\n"
         "    provisioner)\n"
         "  [--upstream-controller-bin=PATH] [--ours-controller-bin=PATH] (snapshot-controller)\n"
         "  [--driver-bin=PATH] [--creator-threads=16] [--phase-timeout=1800]\n"
         "  [--latencies-csv=FILE] (default: latencies.csv beside --csv)\n";
}

base::Result<BenchOptions> ParseOptions(int argc, char** argv) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string_view::npos) {
      return base::Error("bad argument " + std::string(arg));
    }
    std::string key(arg.substr(2, eq - 2));
    std::string value(arg.substr(eq + 1));
    try {
      if (key == "workload")
        o.workload = value;
      else if (key == "n")
        o.n = std::stoul(value);
      else if (key == "attaches")
        o.attaches = std::stoul(value);
      else if (key == "existing")
        o.existing = std::stoul(value);
      else if (key == "rate")
        o.rate = std::stod(value);
      else if (key == "duration")
        o.duration_s = std::stoi(value);
      else if (key == "latency-ms")
        o.latency = std::chrono::milliseconds(std::stoi(value));
      else if (key == "ready-after")
        o.ready_after = std::stoi(value);
      else if (key == "qps")
        o.qps = std::stod(value);
      else if (key == "burst")
        o.burst = std::stoi(value);
      else if (key == "workers")
        o.workers = std::stoi(value);
      else if (key == "timeout")
        o.timeout = value;
      else if (key == "reps")
        o.reps = std::stoi(value);
      else if (key == "contenders")
        o.contenders = SplitCommas(value);
      else if (key == "ours-bin")
        o.ours_bin = value;
      else if (key == "upstream-bin")
        o.upstream_bin = value;
      else if (key == "ours-controller-bin")
        o.ours_controller_bin = value;
      else if (key == "upstream-controller-bin")
        o.upstream_controller_bin = value;
      else if (key == "upstream-attacher-bin" || key == "upstream-provisioner-bin" ||
               key == "upstream-resizer-bin" || key == "upstream-snapshotter-bin")
        o.upstream_sidecar_bins[key.substr(9, key.size() - 9 - 4)] = value;
      else if (key == "crds-dir")
        o.crds_dir = value;
      else if (key == "driver-bin")
        o.driver_bin = value;
      else if (key == "csv")
        o.csv = value;
      else if (key == "latencies-csv")
        o.latencies_csv = value;
      else if (key == "work-dir")
        o.work_dir = value;
      else if (key == "creator-threads")
        o.creator_threads = std::stoi(value);
      else if (key == "phase-timeout")
        o.phase_timeout_s = std::stoi(value);
      else
        return base::Error("unknown flag --" + key);
    } catch (const std::exception&) {
      return base::Error("bad value for --" + key + ": " + value);
    }
  }
  if (o.workload.empty() || o.csv.empty() || o.work_dir.empty()) {
    return base::Error("--workload, --csv and --work-dir are required");
  }
  // Beside the figures by default, so a run's directory holds both.
  if (o.latencies_csv.empty()) {
    o.latencies_csv = (std::filesystem::path(o.csv).parent_path() / "latencies.csv").string();
  }
  for (const auto& c : o.contenders) {
    if (c != "ours" && c != "upstream" && c != "mixed" && c != "floor" && c != "upstream4" &&
        c != "ours4" && c != "csi-sidecars")
      return base::Error("unknown contender " + c);
  }
  if (o.ready_after < 1) return base::Error("--ready-after must be at least 1");
  return o;
}

std::vector<std::string> ClientFlags(const BenchOptions& options, std::string_view workers_flag) {
  std::string qps = std::to_string(options.qps);
  qps.erase(qps.find_last_not_of('0') + 1);
  if (qps.back() == '.') qps.pop_back();
  return {std::string(workers_flag) + "=" + std::to_string(options.workers),
          "--kube-api-qps=" + qps, "--kube-api-burst=" + std::to_string(options.burst)};
}

}  // namespace bench
