// HttpTransport over HTTP/2 against an in-test h2 server (Http2TestServer):
// the request as fields, one connection for concurrent requests, the retry of
// a request the server refused or cut off with GOAWAY, resets, timeouts,
// stops, and flow control that follows the consumer. The real kube-apiserver
// over HTTP/2 is exercised in tests/integration/kube/http2_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "kube/client/http_transport.h"
#include "tests/support/credentials.h"
#include "tests/support/http2_test_server.h"

namespace kube {
namespace {

using ::testing::HasSubstr;
using testsupport::Http2TestReply;
using testsupport::Http2TestRequest;
using testsupport::Http2TestServer;
using Action = Http2TestReply::Action;
using namespace std::chrono_literals;

constexpr auto kRequestBound = 20s;
constexpr size_t kStreamWindow = 4 << 20;  // what the session announces

Http2TestReply Answer(std::string body, int status = 200) {
  Http2TestReply reply;
  reply.status = status;
  reply.body = std::move(body);
  return reply;
}

Http2TestReply Acting(Action action) {
  Http2TestReply reply;
  reply.action = action;
  return reply;
}

template <class Done>
bool WaitFor(Done done) {
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (!done() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
  return done();
}

class Http2TransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ca = testsupport::GenerateCertificateAuthority("h2-test-ca");
    ASSERT_TRUE(ca.ok());
    ca_pem_ = ca->cert_pem;
    auto serving = testsupport::IssueServingCertificate(*ca, "server", {}, {"127.0.0.1"});
    ASSERT_TRUE(serving.ok());
    serving_ = *serving;
  }

  // Starts the server with `handler` and returns a transport to it.
  std::unique_ptr<HttpTransport> Serve(Http2TestServer::Handler handler) {
    server_ = std::make_unique<Http2TestServer>(serving_, std::move(handler));
    RestConfig config;
    config.server = "https://127.0.0.1:" + std::to_string(server_->port());
    config.ca_pem = ca_pem_;
    config.bearer_token = "s3cr3t-token";
    config.user_agent = "h2-test/1";
    auto transport = HttpTransport::Create(config, clock_, ProxyEnvironment{});
    EXPECT_TRUE(transport.ok()) << transport.error().message;
    return transport.ok() ? std::move(transport).value() : nullptr;
  }

  static HttpRequest Get(std::string path, std::chrono::milliseconds timeout = kRequestBound) {
    HttpRequest request;
    request.path = std::move(path);
    request.timeout = timeout;
    return request;
  }

  std::string ca_pem_;
  testsupport::CertifiedKey serving_;
  std::unique_ptr<Http2TestServer> server_;
  base::FakeClock clock_;
};

TEST_F(Http2TransportTest, TheRequestTravelsAsHttp2FieldsWithItsBody) {
  auto transport = Serve([](const Http2TestRequest&) { return Answer("{}", 201); });
  HttpRequest request = Get("/api/v1/namespaces/ns/events?x=1");
  request.method = "POST";
  request.body = R"({"kind":"Event"})";
  request.content_type = "application/json";
  auto response = transport->Do(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, "{}");
  ASSERT_EQ(server_->requests().size(), 1u);
  auto seen = server_->requests()[0];
  EXPECT_EQ(seen.headers[":method"], "POST");
  EXPECT_EQ(seen.headers[":scheme"], "https");
  EXPECT_EQ(seen.headers[":authority"], "127.0.0.1:" + std::to_string(server_->port()));
  EXPECT_EQ(seen.headers[":path"], "/api/v1/namespaces/ns/events?x=1");
  EXPECT_EQ(seen.headers["authorization"], "Bearer s3cr3t-token");
  EXPECT_EQ(seen.headers["user-agent"], "h2-test/1");
  EXPECT_EQ(seen.headers["content-type"], "application/json");
  EXPECT_EQ(seen.headers["accept"], "application/json");
  EXPECT_EQ(seen.body, R"({"kind":"Event"})");
}

TEST_F(Http2TransportTest, ConcurrentRequestsShareOneConnection) {
  auto transport = Serve([](const Http2TestRequest& r) { return Answer(r.headers.at(":path")); });
  std::atomic<int> right = 0;
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 4; ++i) {
          const std::string path = "/p/" + std::to_string(t) + "/" + std::to_string(i);
          auto response = transport->Do(Get(path));
          if (response.ok() && response->status == 200 && response->body == path) ++right;
        }
      });
    }
  }
  EXPECT_EQ(right, 32);
  EXPECT_EQ(server_->connections(), 1);
}

TEST_F(Http2TransportTest, AnErrorAnswerKeepsItsStatusBodyAndRetryAfter) {
  auto transport = Serve([](const Http2TestRequest&) {
    auto reply = Answer(R"({"kind":"Status","code":429})", 429);
    reply.headers = {{"retry-after", "7"}, {"content-type", "application/json"}};
    return reply;
  });
  auto response = transport->Do(Get("/x"));
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 429);
  EXPECT_EQ(response->body, R"({"kind":"Status","code":429})");
  EXPECT_EQ(response->retry_after_seconds, 7);
}

TEST_F(Http2TransportTest, ARefusedStreamIsSentOnceMore) {
  std::atomic<int> calls = 0;
  auto transport = Serve([&](const Http2TestRequest&) {
    return ++calls == 1 ? Acting(Action::kRefuse) : Answer("second");
  });
  auto response = transport->Do(Get("/x"));
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "second");
  EXPECT_EQ(server_->requests().size(), 2u);
}

TEST_F(Http2TransportTest, ARequestRefusedTwiceIsAnErrorNotALoop) {
  auto transport = Serve([](const Http2TestRequest&) { return Acting(Action::kRefuse); });
  auto response = transport->Do(Get("/x"));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message, HasSubstr("GET https://127.0.0.1:"));
  EXPECT_EQ(server_->requests().size(), 2u);
}

TEST_F(Http2TransportTest, AGoawayMovesTheRequestToANewConnection) {
  std::atomic<int> calls = 0;
  auto transport = Serve([&](const Http2TestRequest&) {
    return ++calls == 1 ? Acting(Action::kGoaway) : Answer("on the new one");
  });
  auto response = transport->Do(Get("/x"));
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "on the new one");
  EXPECT_EQ(server_->connections(), 2);
}

TEST_F(Http2TransportTest, AStreamResetInTheMiddleOfItsBodyIsAnError) {
  auto transport = Serve([](const Http2TestRequest&) {
    auto reply = Acting(Action::kResetMidBody);
    reply.filler_bytes = 100000;
    return reply;
  });
  auto response = transport->Do(Get("/x"));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message, HasSubstr("reset the stream"));
  EXPECT_EQ(server_->requests().size(), 1u);  // the server acted on it: not sent again
}

TEST_F(Http2TransportTest, StreamShowsTheHeadThenHandsTheBodyOver) {
  auto transport = Serve([](const Http2TestRequest&) {
    auto reply = Answer("{\"type\":\"ADDED\"}\n");
    reply.filler_bytes = 300000;
    reply.headers = {{"content-type", "application/json;stream=watch"}};
    return reply;
  });
  std::string content_type, body;
  auto response = transport->Stream(
      Get("/watch", 0ms),
      [&](std::string_view bytes) {
        EXPECT_FALSE(content_type.empty()) << "bytes before the head";
        body.append(bytes);
        return true;
      },
      std::stop_token(), [&](const ResponseHead& head) { content_type = head.content_type; });
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_TRUE(response->body.empty());
  EXPECT_EQ(content_type, "application/json;stream=watch");
  EXPECT_EQ(body, "{\"type\":\"ADDED\"}\n" + std::string(300000, 'x'));
}

TEST_F(Http2TransportTest, ATimedOutRequestIsAnErrorAndTheConnectionCarriesOn) {
  auto transport = Serve([](const Http2TestRequest& r) {
    return r.headers.at(":path") == "/hang" ? Acting(Action::kHold) : Answer("ok");
  });
  auto response = transport->Do(Get("/hang", 300ms));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message, HasSubstr("timed out after 300 ms"));
  auto next = transport->Do(Get("/next"));
  ASSERT_TRUE(next.ok()) << next.error().message;
  EXPECT_EQ(next->body, "ok");
  EXPECT_EQ(server_->connections(), 1);
}

TEST_F(Http2TransportTest, AStopEndsAStreamWaitingForItsHead) {
  auto transport = Serve([](const Http2TestRequest&) { return Acting(Action::kHold); });
  std::stop_source stop;
  auto result = std::async(std::launch::async, [&] {
    return transport->Stream(
        Get("/watch", 0ms), [](std::string_view) { return true; }, stop.get_token());
  });
  ASSERT_TRUE(WaitFor([&] { return server_->requests().size() == 1; }));
  stop.request_stop();
  ASSERT_EQ(result.wait_for(kRequestBound), std::future_status::ready);
  auto response = result.get();
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message, HasSubstr("stopped before the response"));
}

// A watch whose consumer is stuck gets no more than its stream window beyond
// what the consumer finished with, and the connection's other streams go on
// meanwhile.
TEST_F(Http2TransportTest, ASlowStreamConsumerHoldsBackOnlyItsOwnStream) {
  constexpr size_t kBig = 3 * kStreamWindow;
  auto transport = Serve([&](const Http2TestRequest& r) {
    if (r.headers.at(":path") != "/big") return Answer("small");
    auto reply = Answer("");
    reply.filler_bytes = kBig;
    return reply;
  });
  std::atomic<size_t> taken = 0;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto big = std::async(std::launch::async, [&] {
    return transport->Stream(
        Get("/big", 0ms),
        [&](std::string_view bytes) {
          if (taken == 0) {
            taken += bytes.size();
            released.wait();
          } else {
            taken += bytes.size();
          }
          return true;
        },
        std::stop_token());
  });
  // Bytes return to the window once the consumer's call returns, and the
  // first call has not: the server may send one window, no more.
  ASSERT_TRUE(WaitFor([&] { return server_->body_bytes_sent("/big") >= kStreamWindow; }))
      << "sent " << server_->body_bytes_sent("/big");
  auto small = transport->Do(Get("/small"));
  ASSERT_TRUE(small.ok()) << small.error().message;
  EXPECT_EQ(small->body, "small");
  EXPECT_EQ(server_->body_bytes_sent("/big"), kStreamWindow);

  release.set_value();
  ASSERT_EQ(big.wait_for(kRequestBound), std::future_status::ready);
  auto response = big.get();
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(taken, kBig);
}

}  // namespace
}  // namespace kube
