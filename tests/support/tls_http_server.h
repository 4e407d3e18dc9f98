// TlsHttpServer: an HTTPS server on 127.0.0.1 for tests of the client's TLS:
// it presents `server` (certificate and key), asks for a client certificate
// signed by `client_ca_pem` without requiring one, and answers every request
// 200 with a body naming the client certificate's common name ("" without
// one), then closes the connection. It records each handshake: whether it
// succeeded, whether it resumed a session.
//
// One connection at a time; every socket wait has a safety bound, so a
// client that stalls fails a test instead of hanging it.
#pragma once

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/credentials.h"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

namespace testsupport {

struct TlsHandshake {
  bool ok = false;
  bool resumed = false;
  std::string client_common_name;
};

class TlsHttpServer {
 public:
  // Throws std::runtime_error if it cannot listen or load the credentials.
  TlsHttpServer(const CertifiedKey& server, const std::string& client_ca_pem);
  ~TlsHttpServer();
  TlsHttpServer(const TlsHttpServer&) = delete;
  TlsHttpServer& operator=(const TlsHttpServer&) = delete;

  int port() const { return port_; }
  std::vector<TlsHandshake> handshakes() const;

 private:
  void Serve(std::stop_token stop);
  void Handle(int fd);
  void Record(const TlsHandshake& handshake);

  ssl_ctx_st* ctx_ = nullptr;
  int listen_fd_ = -1;
  int port_ = 0;
  mutable std::mutex mu_;  // guards handshakes_
  std::vector<TlsHandshake> handshakes_;
  std::jthread thread_;
};

}  // namespace testsupport
