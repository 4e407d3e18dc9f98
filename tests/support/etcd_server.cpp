#include "tests/support/etcd_server.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/log.h"
#include "tests/support/free_port.h"
#include "tests/support/readiness.h"

namespace testsupport {
namespace {

constexpr int kStartAttempts = 3;
constexpr std::chrono::seconds kReadyTimeout{30};

base::Result<std::unique_ptr<kube::Client>> GatewayClient(const std::string& url) {
  kube::RestConfig config;
  config.server = url;
  // Readiness polls and compactions only; the limiter must never delay them.
  config.qps = 1000;
  config.burst = 1000;
  return kube::Client::Create(config, base::Clock::Real(),
                              {.request_timeout = std::chrono::seconds(5)});
}

base::Status CheckHealth(kube::Client& client) {
  auto body = client.Request("GET", "/health");
  if (!body.ok()) return body.error().Wrap("GET /health");
  auto health = nlohmann::json::parse(*body, nullptr, false);
  if (health.is_object() && health.value("health", "") == "true") return {};
  return base::Error("GET /health answered " + *body);
}

// One JSON-gateway call with a JSON body; returns the decoded answer.
base::Result<nlohmann::json> GatewayCall(kube::Client& client, const std::string& path,
                                         const nlohmann::json& request) {
  auto body = client.Request("POST", path, request.dump(), "application/json");
  if (!body.ok()) return body.error().Wrap("POST " + path);
  auto answer = nlohmann::json::parse(*body, nullptr, false);
  if (answer.is_discarded()) return base::Error("POST " + path + " answered " + *body);
  return answer;
}

}  // namespace

base::Result<std::unique_ptr<EtcdServer>> EtcdServer::Start(const std::string& binary,
                                                            const std::string& data_dir,
                                                            const std::string& log_file) {
  base::Error last_error;
  for (int attempt = 1; attempt <= kStartAttempts; ++attempt) {
    // A failed attempt may have written membership with its ports.
    std::error_code ignored;
    std::filesystem::remove_all(data_dir, ignored);
    auto client_port = PickFreeLoopbackPort();
    auto peer_port = PickFreeLoopbackPort();
    if (!client_port.ok()) return client_port.error();
    if (!peer_port.ok()) return peer_port.error();
    if (*client_port == *peer_port) continue;
    std::string client_url = fmt::format("http://127.0.0.1:{}", *client_port);
    std::string peer_url = fmt::format("http://127.0.0.1:{}", *peer_port);

    auto process = Process::Spawn(
        {.argv = {binary, "--name=local", "--data-dir=" + data_dir,
                  "--listen-client-urls=" + client_url, "--advertise-client-urls=" + client_url,
                  "--listen-peer-urls=" + peer_url, "--initial-advertise-peer-urls=" + peer_url,
                  "--initial-cluster=local=" + peer_url, "--unsafe-no-fsync", "--log-level=warn"},
         .log_file = log_file});
    if (!process.ok()) return process.error().Wrap("start etcd");
    auto client = GatewayClient(client_url);
    if (!client.ok()) return client.error().Wrap("etcd client");

    auto ready = WaitFor("etcd", "GET /health to report healthy", **process, kReadyTimeout,
                         [&] { return CheckHealth(**client); });
    if (ready.ok()) {
      return std::unique_ptr<EtcdServer>(
          new EtcdServer(std::move(*process), client_url, std::move(*client)));
    }
    last_error = ready.error();
    if (!ExitedOnPortConflict(**process)) break;
    LOG_WARNING("etcd lost a port to another process, retrying on other ports")
        .With("attempt", attempt);
  }
  return last_error;
}

base::Status EtcdServer::Compact() {
  // A range over the key "\0" returns nothing but the store's current revision.
  auto range = GatewayCall(*client_, "/v3/kv/range", {{"key", "AA=="}});
  if (!range.ok()) return range.error().Wrap("etcd revision");
  // The gateway encodes int64 fields as JSON strings.
  std::string revision = range->value(nlohmann::json::json_pointer("/header/revision"), "");
  if (revision.empty()) return base::Error("etcd revision: no header.revision in " + range->dump());
  auto compacted =
      GatewayCall(*client_, "/v3/kv/compaction", {{"revision", revision}, {"physical", true}});
  // Nothing was written since an earlier compaction: the goal already holds.
  if (!compacted.ok() &&
      compacted.error().message.find("required revision has been compacted") == std::string::npos) {
    return compacted.error().Wrap("etcd compaction at revision " + revision);
  }
  LOG_INFO("Compacted etcd").With("revision", revision);
  return {};
}

}  // namespace testsupport
