// The metrics/healthz endpoint's routes (docs/attacher.md §4, §3 health check hook).
#include "metrics/http_server.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/raw_http_client.h"

namespace metrics {
namespace {

using testsupport::RawHttpClient;

// The whole stream of one request on its own connection, which the server
// closes after the answer ("Connection: close").
std::string Get(int port, const std::string& path, const std::string& method = "GET") {
  RawHttpClient client(port);
  if (!client.Send(method + " " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) {
    return "send failed";
  }
  std::string response;
  client.AwaitClosed(&response);
  return response;
}

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = HttpServer::Start("127.0.0.1:0");
    ASSERT_TRUE(server.ok()) << server.error().message;
    server_ = std::move(server).value();
    server_->Handle("/metrics", [] { return HttpResponse{200, "m 1\n"}; });
  }
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerTest, ServesTheMetricsPathForAnyMethod) {
  for (std::string method : {"GET", "POST", "PUT", "DELETE"}) {
    std::string r = Get(server_->port(), "/metrics", method);
    EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << method << ": " << r;
    EXPECT_NE(r.find("Content-Length: 4\r\n"), std::string::npos);
    EXPECT_EQ(r.substr(r.size() - 4), "m 1\n");
  }
  EXPECT_EQ(Get(server_->port(), "/metrics?x=1").rfind("HTTP/1.1 200", 0), 0u);
}

TEST_F(HttpServerTest, HeadGetsHeadersOnly) {
  std::string r = Get(server_->port(), "/metrics", "HEAD");
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  EXPECT_NE(r.find("Content-Length: 4\r\n"), std::string::npos);
  EXPECT_EQ(r.substr(r.size() - 4), "\r\n\r\n");
}

TEST_F(HttpServerTest, EverythingElseIs404) {
  for (std::string path :
       {"/", "/metrics/", "/metricsx", "/healthz/leader-election", "/debug/pprof/"}) {
    std::string r = Get(server_->port(), path);
    EXPECT_EQ(r.rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u) << path << ": " << r;
    EXPECT_NE(r.find("404 page not found\n"), std::string::npos);
  }
}

TEST_F(HttpServerTest, HealthCheckHandlerRegisteredWhileRunning) {
  bool healthy = true;
  server_->Handle("/healthz/leader-election", [&healthy] {
    if (healthy) return HttpResponse{200, "ok"};
    return HttpResponse{500,
                        "internal server error: failed election to renew leadership on lease "};
  });
  std::string r = Get(server_->port(), "/healthz/leader-election");
  EXPECT_EQ(r.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  EXPECT_EQ(r.substr(r.size() - 2), "ok");
  healthy = false;
  r = Get(server_->port(), "/healthz/leader-election");
  EXPECT_EQ(r.rfind("HTTP/1.1 500 Internal Server Error\r\n", 0), 0u);
}

TEST(HttpServerStartTest, BadOrBusyAddressIsAnError) {
  EXPECT_FALSE(HttpServer::Start("no-port").ok());
  EXPECT_FALSE(HttpServer::Start("256.1.1.1:80").ok());
  auto first = HttpServer::Start("127.0.0.1:0");
  ASSERT_TRUE(first.ok());
  auto second = HttpServer::Start("127.0.0.1:" + std::to_string((*first)->port()));
  EXPECT_FALSE(second.ok());
}

TEST(HttpServerStartTest, EmptyHostListensOnAllInterfaces) {
  auto server = HttpServer::Start(":0");
  ASSERT_TRUE(server.ok()) << server.error().message;
  (*server)->Handle("/m", [] { return HttpResponse{200, "x"}; });
  EXPECT_EQ(Get((*server)->port(), "/m").rfind("HTTP/1.1 200", 0), 0u);
}

TEST(HttpServerStartTest, StoppingClosesOpenConnections) {
  auto server = HttpServer::Start("127.0.0.1:0");
  ASSERT_TRUE(server.ok()) << server.error().message;
  RawHttpClient idle((*server)->port());
  RawHttpClient half_sent((*server)->port());
  ASSERT_TRUE(half_sent.Send("GET /metrics HT"));
  server->reset();
  EXPECT_TRUE(idle.AwaitClosed());
  EXPECT_TRUE(half_sent.AwaitClosed());
}

}  // namespace
}  // namespace metrics
