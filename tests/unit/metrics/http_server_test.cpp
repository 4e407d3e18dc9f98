// The metrics/healthz endpoint (BEHAVIOR.md §4, §3 health check hook).
#include "metrics/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace metrics {
namespace {

// Sends `request` to 127.0.0.1:`port` and returns the whole response.
std::string Exchange(int port, const std::string& request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return "connect failed";
  }
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buf[4096];
  for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) response.append(buf, n);
  close(fd);
  return response;
}

std::string Get(int port, const std::string& path, const std::string& method = "GET") {
  return Exchange(port, method + " " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
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

}  // namespace
}  // namespace metrics
