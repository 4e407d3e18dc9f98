// call-cost-bench: the CPU our process spends per API request and per CSI
// call, apart from everything else a controller does. The backlog workload's
// CPU figure mixes requests, CSI calls, watch events and queue hand-offs, and
// moves by 10% between runs on this shared machine; this isolates the two
// calls every VolumeAttachment makes, so a change to the HTTP client or the
// CSI connection can be weighed by itself.
//
// API: a real control plane (tests/support), `--threads` threads each sending
// `--calls` merge PATCHes of its own VolumeAttachment through one Client, as
// the attacher's workers do; CSI: the same threads calling
// ControllerPublishVolume on the fault-injecting driver. Prints CPU
// microseconds per call (getrusage of this process, which the control plane
// and the driver are not part of) for each of `--reps` repetitions after one
// warm-up. It runs as SCHED_BATCH, as the shipped binaries do; under `chrt
// -R -o 0` it measures the default policy instead, and with DISABLE_HTTP2=1
// in the environment HTTP/1.1. A measurement, never a verdict.
//   call-cost-bench [--calls=300] [--threads=10] [--reps=3] [--only=api|csi]
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "base/flags.h"
#include "base/scheduling.h"
#include "bench/objects.h"
#include "csi/connection.h"
#include "csi/controller_client.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/client/client.h"
#include "tests/support/control_plane.h"
#include "tests/support/process.h"

namespace {

using namespace std::chrono_literals;

struct Options {
  int64_t calls = 0;
  int64_t threads = 0;
  int64_t reps = 0;
  std::string only;
};

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Runs `call(thread, index)` calls x threads times, `reps` + 1 times (the
// first warms up), printing each measured repetition.
bool Measure(const char* what, const Options& options, const std::function<bool(int, int)>& call) {
  for (int64_t rep = 0; rep <= options.reps; ++rep) {
    std::atomic<bool> failed = false;
    const double cpu_before = ProcessCpuSeconds();
    const auto wall_before = std::chrono::steady_clock::now();
    {
      std::vector<std::jthread> threads;
      for (int t = 0; t < options.threads; ++t) {
        threads.emplace_back([&, t] {
          for (int64_t i = 0; i < options.calls && !failed; ++i) {
            if (!call(t, static_cast<int>(rep * options.calls + i))) failed = true;
          }
        });
      }
    }
    if (failed) return false;
    const double cpu = ProcessCpuSeconds() - cpu_before;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_before).count();
    const int64_t total = options.calls * options.threads;
    if (rep == 0) continue;
    std::printf("%s rep %lld: %lld calls, CPU %.3f s = %.1f us per call, wall %.3f s\n", what,
                static_cast<long long>(rep), static_cast<long long>(total), cpu,
                cpu * 1e6 / static_cast<double>(total), wall);
  }
  return true;
}

bool MeasureApi(const Options& options) {
  auto plane = testsupport::ControlPlane::Start();
  if (!plane.ok()) return std::fprintf(stderr, "%s\n", plane.error().message.c_str()), false;
  auto config = (*plane)->AdminConfig();
  if (!config.ok()) return std::fprintf(stderr, "%s\n", config.error().message.c_str()), false;
  config->qps = 1e6;  // the token bucket is not what is measured
  config->burst = 1000000;
  auto client = kube::Client::Create(*config);
  if (!client.ok()) return std::fprintf(stderr, "%s\n", client.error().message.c_str()), false;
  for (int t = 0; t < options.threads; ++t) {
    if (auto status = bench::CreateVa(**client, bench::ObjectName("cost", t)); !status.ok()) {
      return std::fprintf(stderr, "%s\n", status.error().message.c_str()), false;
    }
  }
  return Measure("api PATCH", options, [&](int thread, int index) {
    const std::string patch =
        R"({"metadata":{"annotations":{"cost":")" + std::to_string(index) + R"("}}})";
    auto patched = (*client)->Patch<kube::VolumeAttachment>("", bench::ObjectName("cost", thread),
                                                            kube::PatchType::kMerge, patch);
    if (!patched.ok()) std::fprintf(stderr, "%s\n", patched.error().message.c_str());
    return patched.ok();
  });
}

bool MeasureCsi(const Options& options) {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("call-cost-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string socket = dir + "/csi.sock";
  auto driver = testsupport::Process::Spawn(
      {.argv = {FAULT_DRIVER_BIN, "--endpoint=" + socket}, .log_file = dir + "/driver.log"});
  if (!driver.ok()) return std::fprintf(stderr, "%s\n", driver.error().message.c_str()), false;
  auto connection = csi::Connect("unix://" + socket);
  if (!connection.ok()) {
    return std::fprintf(stderr, "%s\n", connection.error().message.c_str()), false;
  }
  csi::ControllerClient controller(**connection);
  const bool ok = Measure("csi ControllerPublishVolume", options, [&](int thread, int index) {
    csi::v1::ControllerPublishVolumeRequest request;
    request.set_volume_id("vol-" + std::to_string(thread) + "-" + std::to_string(index));
    request.set_node_id("node-1");
    request.mutable_volume_capability()->mutable_mount();
    request.mutable_volume_capability()->mutable_access_mode()->set_mode(
        csi::v1::VolumeCapability::AccessMode::SINGLE_NODE_WRITER);
    auto published = controller.ControllerPublishVolume(request, {.timeout = 10s});
    if (!published.ok()) std::fprintf(stderr, "%s\n", published.error().message.c_str());
    return published.ok();
  });
  std::filesystem::remove_all(dir);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  base::PreferBatchScheduling();  // as the shipped binaries run (docs/design.md §5)
  Options options;
  base::FlagSet flags("call-cost-bench");
  flags.Int("calls", &options.calls, 300, "calls per thread and repetition");
  flags.Int("threads", &options.threads, 10, "threads calling at once");
  flags.Int("reps", &options.reps, 3, "measured repetitions (after one warm-up)");
  flags.String("only", &options.only, "", "api or csi (default both)");
  if (auto parsed = flags.Parse(argc, argv); !parsed.ok()) {
    std::fprintf(stderr, "%s\n", parsed.error().message.c_str());
    return 2;
  }
  if (options.calls < 1 || options.threads < 1 || options.reps < 1) {
    std::fprintf(stderr, "--calls, --threads and --reps must be at least 1\n");
    return 2;
  }
  if (!options.only.empty() && options.only != "api" && options.only != "csi") {
    std::fprintf(stderr, "--only must be api or csi, not \"%s\"\n", options.only.c_str());
    return 2;
  }
  if (options.only != "csi" && !MeasureApi(options)) return 1;
  if (options.only != "api" && !MeasureCsi(options)) return 1;
  return 0;
}
