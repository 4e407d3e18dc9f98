// The HTTP endpoint's connection rules (docs/attacher.md §7 row 9): keep-alive, pipelining, 431,
// the header and idle timeouts, the connection cap with the longest-waiting connection dropped
// first, and no client delaying another. Timeouts are configured short; time is only checked as a
// lower bound (nothing is dropped before its deadline) and by generous safety bounds.
#include <gtest/gtest.h>
#include <poll.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "metrics/http_server.h"
#include "tests/support/raw_http_client.h"

namespace metrics {
namespace {

using testsupport::OpenWaitingClients;
using testsupport::RawHttpClient;

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

const std::string kGetMetrics = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";

class HttpServerConnectionsTest : public ::testing::Test {
 protected:
  void Start(const HttpServerLimits& limits = {}) {
    auto server = HttpServer::Start("127.0.0.1:0", limits);
    ASSERT_TRUE(server.ok()) << server.error().message;
    server_ = std::move(server).value();
    server_->Handle("/metrics", [] { return HttpResponse{200, "m 1\n"}; });
  }
  int port() const { return server_->port(); }
  std::unique_ptr<HttpServer> server_;
};

bool IsOk(const std::string& response) { return response.rfind("HTTP/1.1 200 OK\r\n", 0) == 0; }
bool SaysClose(const std::string& response) {
  return response.find("\r\nConnection: close\r\n") != std::string::npos;
}

TEST_F(HttpServerConnectionsTest, KeepAliveServesRequestsOneAfterAnotherOnOneConnection) {
  Start();
  RawHttpClient client(port());
  ASSERT_TRUE(client.Send(kGetMetrics));
  std::string first = client.ReadResponse();
  EXPECT_TRUE(IsOk(first)) << first;
  EXPECT_FALSE(SaysClose(first)) << first;
  ASSERT_TRUE(client.Send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_EQ(client.ReadResponse().rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u);
  ASSERT_TRUE(client.Send(kGetMetrics));
  EXPECT_TRUE(IsOk(client.ReadResponse()));
}

TEST_F(HttpServerConnectionsTest, ConnectionCloseHttp10AndBodiesCloseAfterTheAnswer) {
  Start();
  for (std::string request :
       {"GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n", "GET /metrics HTTP/1.0\r\n\r\n",
        "POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"}) {
    RawHttpClient client(port());
    ASSERT_TRUE(client.Send(request));
    std::string response = client.ReadResponse();
    EXPECT_TRUE(IsOk(response)) << request << response;
    EXPECT_TRUE(SaysClose(response)) << request << response;
    EXPECT_TRUE(client.AwaitClosed()) << request;
  }
  RawHttpClient http10_keep_alive(port());
  const std::string request = "GET /metrics HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
  ASSERT_TRUE(http10_keep_alive.Send(request));
  EXPECT_FALSE(SaysClose(http10_keep_alive.ReadResponse()));
  ASSERT_TRUE(http10_keep_alive.Send(request));
  EXPECT_TRUE(IsOk(http10_keep_alive.ReadResponse()));
}

TEST_F(HttpServerConnectionsTest, PipelinedRequestsInOneWriteAreAnsweredInOrder) {
  Start();
  RawHttpClient client(port());
  ASSERT_TRUE(client.Send(kGetMetrics + "GET /nothing-here HTTP/1.1\r\n\r\n" +
                          "HEAD /metrics?q=1 HTTP/1.1\r\n\r\n" +
                          "GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n"));
  std::string first = client.ReadResponse();
  EXPECT_TRUE(IsOk(first));
  EXPECT_EQ(first.substr(first.size() - 4), "m 1\n");
  EXPECT_EQ(client.ReadResponse().rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u);
  std::string head = client.ReadResponse(/*answers_head=*/true);
  EXPECT_TRUE(IsOk(head));
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n");
  std::string last = client.ReadResponse();
  EXPECT_TRUE(IsOk(last)) << last;
  EXPECT_TRUE(SaysClose(last));
  std::string trailing;
  EXPECT_TRUE(client.AwaitClosed(&trailing));
  EXPECT_EQ(trailing, "") << "a HEAD answer must carry no body";
}

TEST_F(HttpServerConnectionsTest, OversizedHeadGets431ThenCloseAndServingGoesOn) {
  HttpServerLimits limits;
  limits.max_header_bytes = 1024;
  Start(limits);
  // A whole megabyte of header, as an attacker would send it.
  RawHttpClient client(port());
  ASSERT_TRUE(client.Send("GET /metrics HTTP/1.1\r\nX-Big: " + std::string(1 << 20, 'a')));
  std::string response = client.ReadResponse();
  EXPECT_EQ(response.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0), 0u) << response;
  EXPECT_TRUE(SaysClose(response));
  EXPECT_TRUE(client.AwaitClosed());
  // A complete head one byte over the limit gets the same answer.
  RawHttpClient over(port());
  std::string head = "GET /metrics HTTP/1.1\r\nX: ";
  head += std::string(1024 - head.size() - 3, 'b') + "\r\n\r\n";
  ASSERT_EQ(head.size(), 1025u);
  ASSERT_TRUE(over.Send(head));
  EXPECT_EQ(over.ReadResponse().rfind("HTTP/1.1 431 ", 0), 0u);

  RawHttpClient next(port());
  ASSERT_TRUE(next.Send(kGetMetrics));
  EXPECT_TRUE(IsOk(next.ReadResponse()));
}

TEST_F(HttpServerConnectionsTest, MalformedRequestGets400ThenClose) {
  Start();
  RawHttpClient client(port());
  ASSERT_TRUE(client.Send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
  std::string response = client.ReadResponse();
  EXPECT_EQ(response.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << response;
  EXPECT_TRUE(client.AwaitClosed());
}

TEST_F(HttpServerConnectionsTest, HalfSentRequestIsDroppedAtTheHeaderTimeout) {
  HttpServerLimits limits;
  limits.header_timeout = 300ms;
  Start(limits);
  const auto start = SteadyClock::now();
  RawHttpClient client(port());
  ASSERT_TRUE(client.Send("GET /metrics HTTP/1.1\r\nHo"));
  EXPECT_TRUE(client.AwaitClosed());
  EXPECT_GE(SteadyClock::now() - start, limits.header_timeout);
}

TEST_F(HttpServerConnectionsTest, TricklingHeadDoesNotExtendTheHeaderTimeout) {
  HttpServerLimits limits;
  limits.header_timeout = 300ms;
  Start(limits);
  RawHttpClient client(port());
  // One byte every 20 ms for up to 10 s: were each byte to restart the
  // deadline, the connection would outlive the trickle.
  const std::string request = "GET /metrics HTTP/1.1\r\nX-Slow: " + std::string(500, 'a');
  bool closed = false;
  for (char byte : request) {
    if (!client.Send(std::string(1, byte))) {
      closed = true;  // reset by the server
      break;
    }
    pollfd readable{client.fd(), POLLIN, 0};
    if (poll(&readable, 1, 20) == 1) {
      closed = client.AwaitClosed();
      break;
    }
  }
  EXPECT_TRUE(closed);
}

TEST_F(HttpServerConnectionsTest, KeptAliveConnectionIsClosedAtTheIdleTimeout) {
  HttpServerLimits limits;
  limits.idle_timeout = 300ms;
  Start(limits);
  RawHttpClient client(port());
  const auto asked = SteadyClock::now();  // the idle wait starts after this
  ASSERT_TRUE(client.Send(kGetMetrics));
  ASSERT_TRUE(IsOk(client.ReadResponse()));
  EXPECT_TRUE(client.AwaitClosed());
  EXPECT_GE(SteadyClock::now() - asked, limits.idle_timeout);
}

TEST_F(HttpServerConnectionsTest, AtTheCapTheLongestWaitingConnectionIsDropped) {
  HttpServerLimits limits;
  limits.max_connections = 3;
  Start(limits);
  auto half_sent = OpenWaitingClients(port(), 3, "GET /metrics HTTP/1.1\r\n");
  ASSERT_EQ(half_sent.size(), 3u);
  RawHttpClient newcomer(port());
  EXPECT_TRUE(half_sent[0]->AwaitClosed()) << "the oldest waiting connection goes first";
  for (int i = 1; i < 3; ++i) {
    ASSERT_TRUE(half_sent[i]->Send("Host: x\r\n\r\n"));
    EXPECT_TRUE(IsOk(half_sent[i]->ReadResponse())) << i;
  }
  ASSERT_TRUE(newcomer.Send(kGetMetrics));
  EXPECT_TRUE(IsOk(newcomer.ReadResponse()));
}

TEST_F(HttpServerConnectionsTest, AtTheCapAnIdleKeptAliveConnectionGoesBeforeANewerHalfRequest) {
  HttpServerLimits limits;
  limits.max_connections = 2;
  Start(limits);
  RawHttpClient idle(port());
  ASSERT_TRUE(idle.Send(kGetMetrics));
  ASSERT_TRUE(IsOk(idle.ReadResponse()));  // now idle, waiting for its next request
  RawHttpClient half_sent(port());
  ASSERT_TRUE(half_sent.Send("GET /metrics HTTP/1.1\r\n"));
  RawHttpClient newcomer(port());
  EXPECT_TRUE(idle.AwaitClosed());
  ASSERT_TRUE(half_sent.Send("\r\n"));
  EXPECT_TRUE(IsOk(half_sent.ReadResponse()));
}

TEST_F(HttpServerConnectionsTest, AtTheCapAResponseBeingReadIsKeptOverWaitingClients) {
  HttpServerLimits limits;
  limits.max_connections = 2;
  Start(limits);
  // Far more than the socket buffers hold: the answer stays in flight until
  // the client reads it.
  const std::string big(32 << 20, 'x');
  std::promise<void> answering;
  server_->Handle("/big", [&big, &answering] {
    answering.set_value();
    return HttpResponse{200, big};
  });
  RawHttpClient slow_reader(port());
  ASSERT_TRUE(slow_reader.Send("GET /big HTTP/1.1\r\n\r\n"));
  // The loop thread writes what fits right after the handler returns and
  // only then looks at further connections.
  answering.get_future().wait();
  RawHttpClient half_sent(port());
  ASSERT_TRUE(half_sent.Send("GET /metrics HTTP/1.1\r\n"));
  RawHttpClient newcomer(port());
  EXPECT_TRUE(half_sent.AwaitClosed());
  std::string response = slow_reader.ReadResponse();
  ASSERT_TRUE(IsOk(response.substr(0, 40)));
  EXPECT_EQ(response.size() - response.find("\r\n\r\n") - 4, big.size());
}

// With a header timeout of an hour, only serving clients side by side can
// answer the probe while 100 half-sent requests wait.
TEST_F(HttpServerConnectionsTest, HalfSentRequestsDoNotDelayOtherClients) {
  HttpServerLimits limits;
  limits.header_timeout = std::chrono::hours(1);
  Start(limits);
  auto attackers = OpenWaitingClients(port(), 100, "GET /metrics HTTP/1.1\r\nHo");
  ASSERT_EQ(attackers.size(), 100u);
  RawHttpClient probe(port());
  ASSERT_TRUE(probe.Send(kGetMetrics));
  EXPECT_TRUE(IsOk(probe.ReadResponse()));
  ASSERT_TRUE(attackers.front()->Send("st: x\r\n\r\n"));
  EXPECT_TRUE(IsOk(attackers.front()->ReadResponse()));
}

}  // namespace
}  // namespace metrics
