// The transport's HTTP/2 against the real kube-apiserver: one multiplexed
// connection for a watch and concurrent requests (as client-go), HTTP/1.1's
// several when DISABLE_HTTP2 turns it off, requests that survive the server's
// GOAWAYs (--goaway-chance), and the PING health check that ends a watch on a
// connection that went silent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kube/client/http_transport.h"
#include "kube/client/http_url.h"
#include "tests/integration/kube/cluster_fixture.h"
#include "tests/support/connect_proxy.h"
#include "tests/support/tcp_connections.h"
#include "tests/support/test_objects.h"

namespace kube {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kAttachmentsPath = "/apis/storage.k8s.io/v1/volumeattachments";

std::unique_ptr<HttpTransport> MakeTransport(const RestConfig& config, Http2Options http2,
                                             const ProxyEnvironment& proxies = {}) {
  auto transport = HttpTransport::Create(config, base::Clock::Real(), proxies, http2);
  EXPECT_TRUE(transport.ok()) << transport.error().message;
  return transport.ok() ? std::move(transport).value() : nullptr;
}

uint16_t ServerPort(const RestConfig& config) {
  auto url = HttpUrl::Parse(config.server);
  EXPECT_TRUE(url.ok());
  return url.ok() ? url->port : 0;
}

int ConnectionsTo(uint16_t port) { return testsupport::EstablishedTcpConnections(getpid(), port); }

// A watch of VolumeAttachments on its own thread, collecting the bytes it receives.
class WatchThread {
 public:
  explicit WatchThread(HttpTransport& transport) {
    thread_ = std::jthread([this, &transport](std::stop_token stop) {
      HttpRequest request;
      request.path = std::string(kAttachmentsPath) + "?watch=true";
      auto result = transport.Stream(
          request,
          [this](std::string_view bytes) {
            std::lock_guard lock(mu_);
            received_.append(bytes);
            return true;
          },
          stop, [this](const ResponseHead&) { started_ = true; });
      std::lock_guard lock(mu_);
      ended_ = true;
      outcome_ = result.ok() ? "status " + std::to_string(result->status) : result.error().message;
    });
  }
  ~WatchThread() { Stop(); }

  // Waits up to `limit` for `done` to hold.
  template <class Done>
  bool WaitFor(Done done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (done()) return true;
      std::this_thread::sleep_for(20ms);
    }
    return done();
  }
  bool WaitStarted() {
    return WaitFor([this] { return started_.load(); }, 10s);
  }
  bool WaitReceived(std::string_view text) {
    return WaitFor(
        [&] {
          std::lock_guard lock(mu_);
          return received_.find(text) != std::string::npos;
        },
        10s);
  }
  bool WaitEnded(std::chrono::milliseconds limit) {
    return WaitFor(
        [this] {
          std::lock_guard lock(mu_);
          return ended_;
        },
        limit);
  }
  std::string outcome() {
    std::lock_guard lock(mu_);
    return outcome_;
  }
  void Stop() {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::atomic<bool> started_ = false;
  std::mutex mu_;
  std::string received_;  // guarded by mu_
  bool ended_ = false;    // guarded by mu_
  std::string outcome_;   // guarded by mu_
  std::jthread thread_;
};

// Runs `count` GETs of the default namespace from `threads` threads at once;
// the number that answered 200.
int ConcurrentGets(HttpTransport& transport, int threads, int count) {
  std::atomic<int> ok = 0;
  std::vector<std::jthread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      for (int i = 0; i < count / threads; ++i) {
        HttpRequest request;
        request.path = "/api/v1/namespaces/default";
        request.timeout = 30s;
        auto response = transport.Do(request);
        if (response.ok() && response->status == 200) ++ok;
      }
    });
  }
  workers.clear();
  return ok;
}

class Http2Test : public ClusterTest {};

TEST_F(Http2Test, AWatchAndConcurrentRequestsShareOneConnection) {
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok());
  const uint16_t port = ServerPort(*config);
  const int before = ConnectionsTo(port);
  auto transport = MakeTransport(*config, Http2Options{});
  ASSERT_NE(transport, nullptr);

  WatchThread watch(*transport);
  ASSERT_TRUE(watch.WaitStarted()) << watch.outcome();
  EXPECT_EQ(ConcurrentGets(*transport, 8, 64), 64);
  // Counted before the admin client's write below opens its own connection.
  EXPECT_EQ(ConnectionsTo(port), before + 1);
  ASSERT_TRUE(admin_->Create(testobjects::Va("h2-va", "drv.example.com", "h2-pv", "node-1")).ok());
  EXPECT_TRUE(watch.WaitReceived("\"h2-va\""));

  watch.Stop();
  EXPECT_EQ(watch.outcome(), "status 200");
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "h2-va").ok());
}

TEST_F(Http2Test, WithHttp2DisabledAWatchAndARequestTakeTwoConnections) {
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok());
  const uint16_t port = ServerPort(*config);
  const int before = ConnectionsTo(port);
  Http2Options http1_only;
  http1_only.enabled = false;
  auto transport = MakeTransport(*config, http1_only);
  ASSERT_NE(transport, nullptr);

  WatchThread watch(*transport);
  ASSERT_TRUE(watch.WaitStarted()) << watch.outcome();
  EXPECT_EQ(ConcurrentGets(*transport, 1, 1), 1);
  EXPECT_EQ(ConnectionsTo(port), before + 2);
}

TEST_F(Http2Test, HealthyConnectionAnswersPingsAndKeepsItsWatch) {
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok());
  const uint16_t port = ServerPort(*config);
  const int before = ConnectionsTo(port);
  Http2Options quick_pings;
  quick_pings.read_idle = 300ms;
  quick_pings.ping_timeout = 2s;
  auto transport = MakeTransport(*config, quick_pings);
  ASSERT_NE(transport, nullptr);

  WatchThread watch(*transport);
  ASSERT_TRUE(watch.WaitStarted()) << watch.outcome();
  // Idle for several read-idle periods: each PING is answered.
  EXPECT_FALSE(watch.WaitEnded(3s)) << watch.outcome();
  EXPECT_EQ(ConnectionsTo(port), before + 1);  // the same one: no PING went unanswered
  ASSERT_TRUE(
      admin_->Create(testobjects::Va("h2-ping", "drv.example.com", "h2-pv", "node-1")).ok());
  EXPECT_TRUE(watch.WaitReceived("\"h2-ping\""));
  ASSERT_TRUE(admin_->Delete<VolumeAttachment>("", "h2-ping").ok());
}

TEST_F(Http2Test, AWatchOnASilentConnectionEndsAfterAnUnansweredPing) {
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok());
  // A name that only the proxy resolves: loopback addresses never take a proxy.
  config->server = "https://kube.test:" + std::to_string(ServerPort(*config));
  config->tls_server_name = "127.0.0.1";
  testsupport::ConnectProxy proxy;
  ProxyEnvironment proxies;
  proxies.https_proxy = "http://127.0.0.1:" + std::to_string(proxy.port());
  Http2Options quick_pings;
  quick_pings.read_idle = 300ms;
  quick_pings.ping_timeout = 500ms;
  auto transport = MakeTransport(*config, quick_pings, proxies);
  ASSERT_NE(transport, nullptr);

  WatchThread watch(*transport);
  ASSERT_TRUE(watch.WaitStarted()) << watch.outcome();
  ASSERT_EQ(proxy.requests().size(), 1u) << "the watch did not go through the proxy";
  proxy.Freeze();
  ASSERT_TRUE(watch.WaitEnded(10s)) << "the watch outlived a silent connection";
  EXPECT_NE(watch.outcome().find("did not answer a PING"), std::string::npos) << watch.outcome();
}

TEST_F(Http2Test, ARequestThatOutlivesItsTimeoutEndsWithAnErrorSayingSo) {
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok());
  auto transport = MakeTransport(*config, Http2Options{});
  ASSERT_NE(transport, nullptr);
  HttpRequest watch;  // a watch that sees no event in its time
  watch.path =
      "/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dnone";
  watch.timeout = 500ms;
  auto response = transport->Do(watch);
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("timed out after 500 ms"), std::string::npos)
      << response.error().message;
  // The connection carries the next request.
  EXPECT_EQ(ConcurrentGets(*transport, 1, 1), 1);
}

// --goaway-chance: the server sends GOAWAY after a random share of requests,
// so clients spread over its replicas; requests in flight on the old
// connection finish, new ones go out on a new connection.
class Http2GoawayTest : public ClusterTest {
 protected:
  static void SetUpTestSuite() {
    testsupport::ControlPlaneOptions options;
    options.extra_apiserver_args = {"--goaway-chance=0.02"};
    StartCluster(std::move(options));
  }
};

TEST_F(Http2GoawayTest, EveryRequestSucceedsWhileTheServerSendsGoaways) {
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok());
  const uint16_t port = ServerPort(*config);
  // The local ports of the connections to the server, the other clients' included.
  auto local_ports = [port] {
    std::set<uint16_t> ports;
    for (const auto& c : testsupport::EstablishedTcpConnectionList(getpid())) {
      if (c.remote_port == port) ports.insert(c.local_port);
    }
    return ports;
  };
  const std::set<uint16_t> others = local_ports();
  auto transport = MakeTransport(*config, Http2Options{});
  ASSERT_NE(transport, nullptr);
  // A GOAWAY moves the requests after it to a new connection: the
  // transport's connections, sampled while the requests run, are several.
  std::set<uint16_t> ours;
  std::jthread sampler([&](std::stop_token stop) {
    while (!stop.stop_requested()) {
      for (uint16_t p : local_ports()) {
        if (!others.contains(p)) ours.insert(p);
      }
      std::this_thread::sleep_for(5ms);
    }
  });
  EXPECT_EQ(ConcurrentGets(*transport, 4, 800), 800);
  sampler.request_stop();
  sampler.join();
  EXPECT_GE(ours.size(), 2u) << "no GOAWAY moved the transport to a new connection";
}

}  // namespace
}  // namespace kube
