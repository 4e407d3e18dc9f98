// Http2TestServer: an HTTPS server on 127.0.0.1 that speaks only HTTP/2
// (ALPN "h2"), for tests of the client's HTTP/2 paths a real API server does
// not take on demand: it answers each request as a handler says, which may
// be an answer (status, headers, a body of any size), a refused stream
// (RST_STREAM REFUSED_STREAM), a GOAWAY that refuses it and every later
// stream on the connection, a reset after part of the body, or no answer. It records
// each request and counts connections, and each answer's bytes sent so far.
//
// One connection at a time (a new one is served once the last closed); every
// wait has a safety bound.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/credentials.h"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace testsupport {

struct Http2TestRequest {
  std::map<std::string, std::string> headers;  // pseudo-headers included (":path")
  std::string body;
};

struct Http2TestReply {
  enum class Action { kAnswer, kRefuse, kGoaway, kResetMidBody, kHold };
  Action action = Action::kAnswer;
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  size_t filler_bytes = 0;  // 'x's after `body`
};

class Http2TestServer {
 public:
  using Handler = std::function<Http2TestReply(const Http2TestRequest&)>;

  // Throws std::runtime_error if it cannot listen or load the credentials.
  Http2TestServer(const CertifiedKey& server, Handler handler);
  ~Http2TestServer();
  Http2TestServer(const Http2TestServer&) = delete;
  Http2TestServer& operator=(const Http2TestServer&) = delete;

  int port() const { return port_; }
  std::vector<Http2TestRequest> requests() const;
  int connections() const { return connections_; }
  // Body bytes handed to the connection for the answers to `path` so far.
  size_t body_bytes_sent(const std::string& path) const;

 private:
  struct Connection;
  void Serve(std::stop_token stop);

  ssl_ctx_st* ctx_ = nullptr;
  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<int> connections_ = 0;
  mutable std::mutex mu_;  // guards requests_, sent_
  std::vector<Http2TestRequest> requests_;
  std::map<std::string, size_t> sent_;
  std::jthread thread_;
};

}  // namespace testsupport
