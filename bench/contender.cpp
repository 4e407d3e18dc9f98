#include "bench/contender.h"

#include "kube/client/config.h"

namespace bench {
namespace {

std::string FormatNumber(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

base::Result<std::unique_ptr<Contender>> Contender::Start(const std::string& kind,
                                                          const BenchOptions& options,
                                                          const ContenderSetup& setup) {
  std::unique_ptr<Contender> contender(new Contender());
  if (kind == "floor") {
    auto config = kube::LoadKubeconfig(setup.attacher_kubeconfig);
    if (!config.ok()) return config.error();
    config->qps = options.qps;
    config->burst = options.burst;
    auto client = kube::Client::Create(*config);
    if (!client.ok()) return client.error();
    contender->floor_client_ = std::move(*client);
    auto floor =
        FloorController::Start(*contender->floor_client_, {.workers = options.workers,
                                                           .publish_latency = options.latency,
                                                           .unpublish_latency = options.latency});
    if (!floor.ok()) return floor.error();
    contender->floor_ = std::move(*floor);
    return contender;
  }
  // Default verbosity for both: logging cost is part of what an operator runs.
  std::vector<std::string> argv = {kind == "ours" ? options.ours_bin : options.upstream_bin,
                                   "--kubeconfig=" + setup.attacher_kubeconfig,
                                   "--csi-address=" + setup.csi_socket,
                                   "--timeout=" + options.timeout,
                                   "--worker-threads=" + std::to_string(options.workers),
                                   "--kube-api-qps=" + FormatNumber(options.qps),
                                   "--kube-api-burst=" + std::to_string(options.burst)};
  auto process = testsupport::Process::Spawn({.argv = argv, .log_file = setup.log_file});
  if (!process.ok()) return process.error();
  contender->process_ = std::move(*process);
  return contender;
}

void Contender::Stop() {
  floor_.reset();
  floor_client_.reset();
  if (process_) process_->Stop();
}

}  // namespace bench
