// One connection's HTTP/1.1 state machine, stepped by hand over a socket
// pair: no thread and no timing, so each step's effect is exact.
#include "metrics/http_connection.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>

namespace metrics {
namespace {

class HttpConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    client_ = fds[1];
    connection_ = std::make_unique<HttpConnection>(fds[0], kMaxHeader, respond_);
  }
  void TearDown() override { close(client_); }

  void ClientSends(const std::string& data) {
    ASSERT_EQ(send(client_, data.data(), data.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(data.size()));
  }
  // Everything the connection has written so far.
  std::string ClientReceives() {
    std::string received;
    char buffer[65536];
    for (ssize_t n; (n = recv(client_, buffer, sizeof(buffer), 0)) > 0;) received.append(buffer, n);
    return received;
  }
  bool ClientSeesEndOfStream() {
    char byte;
    return recv(client_, &byte, 1, 0) == 0;
  }

  static constexpr size_t kMaxHeader = 256;
  std::string body_ = "m 1\n";
  HttpConnection::Responder respond_ = [this](std::string_view path) {
    if (path == "/metrics") return HttpResponse{200, body_};
    return HttpResponse{404, "404 page not found\n"};
  };
  int client_ = -1;
  std::unique_ptr<HttpConnection> connection_;
};

TEST_F(HttpConnectionTest, AnswersAndWaitsForTheNextRequest) {
  EXPECT_EQ(connection_->wait(), ClientWait::kRequestHead);
  ClientSends("GET /metrics HTTP/1.1\r\n\r\n");
  connection_->OnReadable();
  EXPECT_EQ(
      ClientReceives(),
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 4\r\n\r\n"
      "m 1\n");
  EXPECT_EQ(connection_->wait(), ClientWait::kNextRequest);
  EXPECT_FALSE(connection_->wants_write());
  EXPECT_FALSE(connection_->closed());
}

TEST_F(HttpConnectionTest, TheHeaderDeadlineStartsAtTheFirstByteAndBytesDoNotRestartIt) {
  ClientSends("GET /metrics HTTP/1.1\r\n\r\n");
  connection_->OnReadable();
  ASSERT_EQ(connection_->wait(), ClientWait::kNextRequest);
  const uint64_t idle = connection_->waits_begun();
  ClientSends("GET /met");
  connection_->OnReadable();
  EXPECT_EQ(connection_->wait(), ClientWait::kRequestHead);
  EXPECT_EQ(connection_->waits_begun(), idle + 1);
  ClientSends("rics HTTP/1.1\r\n");
  connection_->OnReadable();
  EXPECT_EQ(connection_->waits_begun(), idle + 1);
}

TEST_F(HttpConnectionTest, PipelinedRequestsAreAnsweredOnePerStep) {
  ClientSends("GET /metrics HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\n\r\nGET /metr");
  connection_->OnReadable();
  EXPECT_EQ(ClientReceives().rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  EXPECT_TRUE(connection_->wants_write()) << "the buffered request waits for the next turn";
  connection_->OnWritable();
  std::string second = ClientReceives();
  EXPECT_EQ(second.rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u) << second;
  EXPECT_EQ(second.find("HTTP/1.1 200"), std::string::npos);
  EXPECT_TRUE(connection_->wants_write());
  connection_->OnWritable();  // only a partial head is left
  EXPECT_EQ(ClientReceives(), "");
  EXPECT_FALSE(connection_->wants_write());
  EXPECT_EQ(connection_->wait(), ClientWait::kRequestHead);
  ClientSends("ics HTTP/1.1\r\n\r\n");
  connection_->OnReadable();
  EXPECT_EQ(ClientReceives().rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
}

TEST_F(HttpConnectionTest, AnAnswerTheClientHasNotTakenKeepsTheConnectionWaitingForIt) {
  body_ = std::string(8 << 20, 'x');
  ClientSends("GET /metrics HTTP/1.1\r\n\r\n");
  connection_->OnReadable();
  EXPECT_EQ(connection_->wait(), ClientWait::kResponseRead);
  EXPECT_TRUE(connection_->wants_write());
  size_t received = 0;
  while (connection_->wants_write()) {
    received += ClientReceives().size();
    connection_->OnWritable();
  }
  received += ClientReceives().size();
  EXPECT_GT(received, body_.size());
  EXPECT_EQ(connection_->wait(), ClientWait::kNextRequest);
}

TEST_F(HttpConnectionTest, OversizedHeadGets431ThenLingersUntilTheClientCloses) {
  ClientSends("GET /metrics HTTP/1.1\r\nX: " + std::string(kMaxHeader, 'a'));
  connection_->OnReadable();
  std::string response = ClientReceives();
  EXPECT_EQ(response.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0), 0u) << response;
  EXPECT_NE(response.find("\r\nConnection: close\r\n"), std::string::npos);
  EXPECT_TRUE(ClientSeesEndOfStream());
  EXPECT_EQ(connection_->wait(), ClientWait::kLinger);
  ClientSends(std::string(50000, 'b'));  // still sending: discarded
  connection_->OnReadable();
  EXPECT_FALSE(connection_->closed());
  shutdown(client_, SHUT_WR);
  while (!connection_->closed()) connection_->OnReadable();
}

TEST_F(HttpConnectionTest, ClientLeavingBeforeAWholeRequestClosesIt) {
  ClientSends("GET /metrics HTTP/1.1\r\n");
  connection_->OnReadable();
  EXPECT_FALSE(connection_->closed());
  shutdown(client_, SHUT_WR);
  connection_->OnReadable();
  EXPECT_TRUE(connection_->closed());
}

TEST_F(HttpConnectionTest, RequestFollowedByEndOfStreamIsStillAnswered) {
  ClientSends("GET /metrics HTTP/1.1\r\n\r\n");
  shutdown(client_, SHUT_WR);
  connection_->OnReadable();
  EXPECT_EQ(ClientReceives().rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  connection_->OnReadable();
  EXPECT_TRUE(connection_->closed());
}

}  // namespace
}  // namespace metrics
