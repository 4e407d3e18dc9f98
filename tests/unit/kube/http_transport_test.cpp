// HttpTransport against loopback servers: the scripted plain-HTTP server
// (request writing, keep-alive, the retry after a server closed an idle
// connection, timeouts, streaming and stopping, proxies) and an HTTPS server
// with throwaway certificates (verification, names, client certificates,
// session resumption). The real kube-apiserver is exercised in
// tests/integration/kube.
#include "kube/client/http_transport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "tests/support/connect_proxy.h"
#include "tests/support/credentials.h"
#include "tests/support/scripted_http_server.h"
#include "tests/support/tls_http_server.h"

namespace kube {
namespace {

using ::testing::HasSubstr;
using testsupport::CertifiedKey;
using testsupport::ScriptedHttpServer;
using testsupport::ScriptedResponse;
using testsupport::TlsHttpServer;
using namespace std::chrono_literals;

constexpr auto kGenerous = 20s;
const ProxyEnvironment kNoProxies{.https_proxy = "", .http_proxy = "", .no_proxy = ""};

ScriptedResponse KeepAlive(std::string body) {
  ScriptedResponse response;
  response.body_chunks = {std::move(body)};
  response.keep_alive = true;
  return response;
}

ScriptedResponse Closing(std::string body) {
  ScriptedResponse response;
  response.body_chunks = {std::move(body)};
  return response;
}

class HttpTransportTest : public ::testing::Test {
 protected:
  std::unique_ptr<HttpTransport> Make(const ProxyEnvironment& proxies = kNoProxies) {
    RestConfig config;
    config.server = server_.url();
    config.bearer_token = "s3cr3t-token";
    config.user_agent = "transport-test/1";
    auto transport = HttpTransport::Create(config, clock_, proxies);
    EXPECT_TRUE(transport.ok()) << transport.error().message;
    return transport.ok() ? std::move(transport).value() : nullptr;
  }

  ScriptedHttpServer server_;
  base::FakeClock clock_;
};

TEST_F(HttpTransportTest, WritesRequestLineAndHeaders) {
  server_.Script(Closing("{}"));
  auto transport = Make();
  HttpRequest request{"PATCH", "/api/v1/things/a?x=1", R"({"a":1})", "application/merge-patch+json",
                      10s};
  auto response = transport->Do(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "{}");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "PATCH");
  EXPECT_EQ(requests[0].target, "/api/v1/things/a?x=1");
  EXPECT_EQ(requests[0].body, R"({"a":1})");
  EXPECT_EQ(requests[0].headers["host"], server_.url().substr(std::string("http://").size()));
  EXPECT_EQ(requests[0].headers["authorization"], "Bearer s3cr3t-token");
  EXPECT_EQ(requests[0].headers["user-agent"], "transport-test/1");
  EXPECT_EQ(requests[0].headers["accept"], "application/json");
  EXPECT_EQ(requests[0].headers["content-type"], "application/merge-patch+json");
  EXPECT_EQ(requests[0].headers["content-length"], "7");
}

TEST_F(HttpTransportTest, GetAndBodylessDeleteSendNoContentLength) {
  server_.Script(KeepAlive(""));
  server_.Script(KeepAlive(""));
  auto transport = Make();
  ASSERT_TRUE(transport->Do({"GET", "/a", {}, {}, 10s}).ok());
  ASSERT_TRUE(transport->Do({"DELETE", "/a", {}, {}, 10s}).ok());
  for (const auto& request : server_.requests()) {
    EXPECT_FALSE(request.headers.contains("content-length")) << request.method;
  }
}

TEST_F(HttpTransportTest, KeepAliveConnectionIsReused) {
  server_.Script(KeepAlive("one"));
  server_.Script(KeepAlive("two"));
  auto transport = Make();
  auto first = transport->Do({"GET", "/1", {}, {}, 10s});
  auto second = transport->Do({"GET", "/2", {}, {}, 10s});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->body, "one");
  EXPECT_EQ(second->body, "two");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].connection, 1);
  EXPECT_EQ(requests[1].connection, 1);
}

TEST_F(HttpTransportTest, ConnectionCloseIsNotReused) {
  server_.Script(Closing("one"));
  server_.Script(Closing("two"));
  auto transport = Make();
  ASSERT_TRUE(transport->Do({"GET", "/1", {}, {}, 10s}).ok());
  ASSERT_TRUE(transport->Do({"GET", "/2", {}, {}, 10s}).ok());
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].connection, 2);
}

TEST_F(HttpTransportTest, IdleConnectionClosedByServerIsReplacedTransparently) {
  server_.Script(KeepAlive("one"));
  server_.Script(KeepAlive("two"));
  auto transport = Make();
  ASSERT_TRUE(transport->Do({"GET", "/1", {}, {}, 10s}).ok());
  ASSERT_TRUE(server_.CloseIdleConnection());
  auto second = transport->Do({"GET", "/2", {}, {}, 10s});
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->body, "two");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].connection, 2);
}

// The server takes the request on the reused connection and closes it without
// a byte of answer: the request goes out once more on a new connection.
TEST_F(HttpTransportTest, RequestLostOnReusedConnectionIsRetriedOnceOnANewOne) {
  server_.Script(KeepAlive("one"));
  ScriptedResponse dropped;
  dropped.drop_without_answer = true;
  server_.Script(dropped);
  server_.Script(KeepAlive("two"));
  auto transport = Make();
  ASSERT_TRUE(transport->Do({"GET", "/1", {}, {}, 10s}).ok());
  auto second = transport->Do({"POST", "/2", "body", "application/json", 10s});
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->body, "two");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].connection, 1);
  EXPECT_EQ(requests[2].connection, 2);
  EXPECT_EQ(requests[2].body, "body");
}

TEST_F(HttpTransportTest, RequestLostOnNewConnectionIsAnError) {
  ScriptedResponse dropped;
  dropped.drop_without_answer = true;
  server_.Script(dropped);
  server_.Script(dropped);
  auto transport = Make();
  auto response = transport->Do({"GET", "/lost", {}, {}, 10s});
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(response.error().IsTransport());
  EXPECT_THAT(response.error().message, HasSubstr("GET " + server_.url() + "/lost"));
  EXPECT_THAT(response.error().message, HasSubstr("before any response"));
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(HttpTransportTest, ChunkedBodyIsDecoded) {
  ScriptedResponse chunked;
  chunked.headers = {{"Transfer-Encoding", "chunked"}};
  chunked.body_chunks = {"3;ext=1\r\nabc\r\n", "2\r\nde\r\n0\r\nTrailer: x\r\n\r\n"};
  chunked.keep_alive = true;
  server_.Script(chunked);
  server_.Script(KeepAlive("next"));
  auto transport = Make();
  auto response = transport->Do({"GET", "/c", {}, {}, 10s});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "abcde");
  // The chunked framing ended the response, so the connection carries the next one.
  ASSERT_TRUE(transport->Do({"GET", "/n", {}, {}, 10s}).ok());
  EXPECT_EQ(server_.requests().back().connection, 1);
}

TEST_F(HttpTransportTest, RetryAfterSecondsIsReported) {
  ScriptedResponse busy;
  busy.status = 429;
  busy.headers = {{"Retry-After", "3"}};
  server_.Script(busy);
  auto response = Make()->Do({"GET", "/busy", {}, {}, 10s});
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 429);
  EXPECT_EQ(response->retry_after_seconds, 3);
}

TEST_F(HttpTransportTest, WholeRequestTimeoutIsAnErrorSayingSo) {
  ScriptedResponse stalled;
  stalled.headers = {{"Content-Length", "100"}};
  stalled.body_chunks = {"only part"};
  stalled.keep_alive = true;
  server_.Script(stalled);
  auto response = Make()->Do({"GET", "/slow", {}, {}, 300ms});
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(response.error().IsTransport());
  EXPECT_THAT(response.error().message, HasSubstr("timed out after 300 ms"));
}

TEST_F(HttpTransportTest, StreamHandsBodyOverAndEndsWithEmptyBody) {
  ScriptedResponse stream;
  stream.body_chunks = {"event-1\n", "event-2\n"};
  server_.Script(stream);
  std::string received;
  auto response = Make()->Stream(
      {"GET", "/watch", {}, {}, 0ms},
      [&](std::string_view bytes) {
        received.append(bytes);
        return true;
      },
      std::stop_token());
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "");
  EXPECT_EQ(received, "event-1\nevent-2\n");
}

TEST_F(HttpTransportTest, StreamReturnsNonSuccessBodyWhole) {
  ScriptedResponse gone;
  gone.status = 410;
  gone.body_chunks = {"{\"kind\":", "\"Status\"}"};
  server_.Script(gone);
  bool streamed = false;
  auto response = Make()->Stream(
      {"GET", "/watch", {}, {}, 0ms},
      [&](std::string_view) {
        streamed = true;
        return true;
      },
      std::stop_token());
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 410);
  EXPECT_EQ(response->body, "{\"kind\":\"Status\"}");
  EXPECT_FALSE(streamed);
}

TEST_F(HttpTransportTest, StreamStopsWhenCallbackDeclines) {
  ScriptedResponse stream;
  stream.headers = {{"Content-Length", "1000"}};
  stream.body_chunks = {"first"};
  stream.keep_alive = true;  // the server keeps the connection open: only the callback ends it
  server_.Script(stream);
  auto transport = Make();
  auto done = std::async(std::launch::async, [&] {
    return transport->Stream(
        {"GET", "/watch", {}, {}, 0ms}, [](std::string_view) { return false; }, std::stop_token());
  });
  ASSERT_EQ(done.wait_for(kGenerous), std::future_status::ready);
  auto response = done.get();
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
}

TEST_F(HttpTransportTest, StreamStopRequestWakesTheWaitingRead) {
  ScriptedResponse stream;
  stream.headers = {{"Content-Length", "1000"}};
  stream.body_chunks = {"first"};
  stream.keep_alive = true;
  server_.Script(stream);
  auto transport = Make();
  std::stop_source stop;
  std::promise<void> first_data;
  auto done = std::async(std::launch::async, [&] {
    bool told = false;
    return transport->Stream(
        {"GET", "/watch", {}, {}, 0ms},
        [&](std::string_view) {
          if (!told) first_data.set_value();
          told = true;
          return true;
        },
        stop.get_token());
  });
  ASSERT_EQ(first_data.get_future().wait_for(kGenerous), std::future_status::ready);
  stop.request_stop();
  ASSERT_EQ(done.wait_for(kGenerous), std::future_status::ready);
  auto response = done.get();
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
}

TEST_F(HttpTransportTest, StreamShowsAHeadThatArrivesAloneBeforeAnyBody) {
  ScriptedResponse stream;  // a watch with no event yet: the head, then nothing
  stream.headers = {{"Content-Length", "1000"}, {"Content-Type", "application/json"}};
  stream.keep_alive = true;
  server_.Script(stream);
  auto transport = Make();
  std::stop_source stop;
  std::promise<std::string> head_seen;
  auto done = std::async(std::launch::async, [&] {
    return transport->Stream(
        {"GET", "/watch", {}, {}, 0ms}, [](std::string_view) { return true; }, stop.get_token(),
        [&](const ResponseHead& head) { head_seen.set_value(head.content_type); });
  });
  auto head = head_seen.get_future();
  ASSERT_EQ(head.wait_for(kGenerous), std::future_status::ready);
  EXPECT_EQ(head.get(), "application/json");
  stop.request_stop();
  ASSERT_EQ(done.wait_for(kGenerous), std::future_status::ready);
  auto response = done.get();
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
}

TEST_F(HttpTransportTest, PlainRequestsGoThroughHttpProxyWithAbsoluteTarget) {
  server_.Script(Closing("via proxy"));
  RestConfig config;
  config.server = "http://kube.invalid:8080/prefix";
  const std::string proxy_url = server_.url();
  ProxyEnvironment proxies{
      .https_proxy = "",
      .http_proxy = "http://alice:pa%20ss@" + proxy_url.substr(std::string("http://").size()),
      .no_proxy = "other.invalid"};
  auto transport = HttpTransport::Create(config, clock_, proxies);
  ASSERT_TRUE(transport.ok()) << transport.error().message;
  auto response = (*transport)->Do({"GET", "/api", {}, {}, 10s});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "via proxy");
  auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].target, "http://kube.invalid:8080/prefix/api");
  EXPECT_EQ(requests[0].headers["host"], "kube.invalid:8080");
  EXPECT_EQ(requests[0].headers["proxy-authorization"], "Basic YWxpY2U6cGEgc3M=");  // alice:pa ss
}

TEST_F(HttpTransportTest, NoProxyEntryConnectsDirectly) {
  server_.Script(Closing("direct"));
  RestConfig config;
  config.server = server_.url();
  // Loopback never uses a proxy; the proxy named here does not exist.
  ProxyEnvironment proxies{
      .https_proxy = "", .http_proxy = "http://proxy.invalid:1", .no_proxy = ""};
  auto transport = HttpTransport::Create(config, clock_, proxies);
  ASSERT_TRUE(transport.ok());
  auto response = (*transport)->Do({"GET", "/", {}, {}, 10s});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "direct");
}

TEST_F(HttpTransportTest, TokenWithLineBreakIsRefusedNotSent) {
  RestConfig config;
  config.server = server_.url();
  config.bearer_token = "abc\r\nX-Injected: 1";
  auto transport = HttpTransport::Create(config, clock_, kNoProxies);
  ASSERT_TRUE(transport.ok());
  auto response = (*transport)->Do({"GET", "/", {}, {}, 10s});
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message, HasSubstr("Authorization"));
  EXPECT_THAT(response.error().message, ::testing::Not(HasSubstr("abc")));
  EXPECT_TRUE(server_.requests().empty());
}

TEST(HttpTransportCreateTest, BadServerUrlIsAnError) {
  base::FakeClock clock;
  RestConfig config;
  config.server = "ftp://example.com";
  auto transport = HttpTransport::Create(config, clock, kNoProxies);
  ASSERT_FALSE(transport.ok());
  EXPECT_THAT(transport.error().message, HasSubstr("ftp://example.com"));
}

// A CA, a server certificate for "kube.test" and 127.0.0.1 it signs, a client
// certificate it signs, and an unrelated CA.
class HttpTransportTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ca = testsupport::GenerateCertificateAuthority("transport-test-ca");
    auto other_ca = testsupport::GenerateCertificateAuthority("unrelated-ca");
    ASSERT_TRUE(ca.ok() && other_ca.ok());
    ca_ = *ca;
    other_ca_ = *other_ca;
    auto serving =
        testsupport::IssueServingCertificate(ca_, "server", {"kube.test"}, {"127.0.0.1"});
    auto client = testsupport::IssueClientCertificate(ca_, "system:test-client");
    ASSERT_TRUE(serving.ok() && client.ok());
    client_ = *client;
    server_ = std::make_unique<TlsHttpServer>(*serving, ca_.cert_pem);
  }

  RestConfig Config(const std::string& host) {
    RestConfig config;
    config.server = "https://" + host + ":" + std::to_string(server_->port());
    config.ca_pem = ca_.cert_pem;
    return config;
  }

  base::Result<HttpResponse> Get(const RestConfig& config) {
    auto transport = HttpTransport::Create(config, clock_, kNoProxies);
    if (!transport.ok()) return transport.error();
    return (*transport)->Do({"GET", "/version", {}, {}, 10s});
  }

  CertifiedKey ca_, other_ca_, client_;
  std::unique_ptr<TlsHttpServer> server_;
  base::FakeClock clock_;
};

TEST_F(HttpTransportTlsTest, VerifiedServerAnswersOverIpAddress) {
  auto response = Get(Config("127.0.0.1"));
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "");  // no client certificate presented
}

TEST_F(HttpTransportTlsTest, UnknownCaIsAnErrorNamingTheReason) {
  RestConfig config = Config("127.0.0.1");
  config.ca_pem = other_ca_.cert_pem;
  auto response = Get(config);
  ASSERT_FALSE(response.ok());
  EXPECT_TRUE(response.error().IsTransport());
  EXPECT_THAT(response.error().message, HasSubstr("TLS handshake: certificate verification failed: "
                                                  "self-signed certificate in certificate chain"));
}

TEST_F(HttpTransportTlsTest, WrongHostnameFails) {
  auto response = Get(Config("localhost"));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message,
              HasSubstr("certificate verification failed: hostname mismatch"));
}

TEST_F(HttpTransportTlsTest, WrongIpAddressFails) {
  auto serving = testsupport::IssueServingCertificate(ca_, "server", {"kube.test"}, {"10.1.2.3"});
  ASSERT_TRUE(serving.ok());
  server_ = std::make_unique<TlsHttpServer>(*serving, ca_.cert_pem);
  auto response = Get(Config("127.0.0.1"));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.error().message,
              HasSubstr("certificate verification failed: IP address mismatch"));
}

TEST_F(HttpTransportTlsTest, TlsServerNameOverridesTheVerifiedName) {
  RestConfig config = Config("localhost");
  config.tls_server_name = "kube.test";
  auto response = Get(config);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
}

TEST_F(HttpTransportTlsTest, InsecureSkipVerifyAcceptsAnyServer) {
  RestConfig config = Config("localhost");
  config.ca_pem = other_ca_.cert_pem;
  config.insecure_skip_tls_verify = true;
  auto response = Get(config);
  ASSERT_TRUE(response.ok()) << response.error().message;
}

TEST_F(HttpTransportTlsTest, ClientCertificateIsPresented) {
  RestConfig config = Config("127.0.0.1");
  config.client_cert_pem = client_.cert_pem;
  config.client_key_pem = client_.key_pem;
  auto response = Get(config);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "system:test-client");
}

TEST_F(HttpTransportTlsTest, MismatchedClientKeyIsAConfigurationError) {
  RestConfig config = Config("127.0.0.1");
  config.client_cert_pem = client_.cert_pem;
  config.client_key_pem = other_ca_.key_pem;
  auto transport = HttpTransport::Create(config, clock_, kNoProxies);
  ASSERT_FALSE(transport.ok());
  EXPECT_THAT(transport.error().message, HasSubstr("does not match"));
  EXPECT_THAT(transport.error().message, ::testing::Not(HasSubstr("PRIVATE KEY")));
}

TEST_F(HttpTransportTlsTest, CaDataWithoutCertificateIsAConfigurationError) {
  RestConfig config = Config("127.0.0.1");
  config.ca_pem = "not a certificate";
  auto transport = HttpTransport::Create(config, clock_, kNoProxies);
  ASSERT_FALSE(transport.ok());
  EXPECT_THAT(transport.error().message, HasSubstr("no PEM certificate"));
}

TEST_F(HttpTransportTlsTest, ReconnectResumesTheTlsSession) {
  auto transport = HttpTransport::Create(Config("127.0.0.1"), clock_, kNoProxies);
  ASSERT_TRUE(transport.ok());
  // The server closes after each answer, so each request needs a new connection.
  ASSERT_TRUE((*transport)->Do({"GET", "/1", {}, {}, 10s}).ok());
  ASSERT_TRUE((*transport)->Do({"GET", "/2", {}, {}, 10s}).ok());
  auto handshakes = server_->handshakes();
  ASSERT_EQ(handshakes.size(), 2u);
  EXPECT_FALSE(handshakes[0].resumed);
  EXPECT_TRUE(handshakes[1].resumed);
}

TEST_F(HttpTransportTlsTest, HttpsTunnelsThroughHttpProxyWithConnect) {
  testsupport::ConnectProxy proxy;
  // Only the proxy can reach "kube.test": it connects to 127.0.0.1.
  RestConfig config = Config("kube.test");
  config.client_cert_pem = client_.cert_pem;
  config.client_key_pem = client_.key_pem;
  ProxyEnvironment proxies{.https_proxy = "bob:hunter2@127.0.0.1:" + std::to_string(proxy.port()),
                           .http_proxy = "",
                           .no_proxy = ".example.com"};
  auto transport = HttpTransport::Create(config, clock_, proxies);
  ASSERT_TRUE(transport.ok()) << transport.error().message;
  auto response = (*transport)->Do({"GET", "/version", {}, {}, 10s});
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->body, "system:test-client");
  auto requests = proxy.requests();
  ASSERT_EQ(requests.size(), 1u);
  const std::string authority = "kube.test:" + std::to_string(server_->port());
  EXPECT_THAT(requests[0], ::testing::StartsWith("CONNECT " + authority + " HTTP/1.1\r\n"));
  EXPECT_THAT(requests[0], HasSubstr("Host: " + authority + "\r\n"));
  EXPECT_THAT(requests[0],
              HasSubstr("Proxy-Authorization: Basic Ym9iOmh1bnRlcjI="));  // bob:hunter2
}

}  // namespace
}  // namespace kube
