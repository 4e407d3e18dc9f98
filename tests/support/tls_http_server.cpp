#include "tests/support/tls_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <stdexcept>

#include "tests/support/loopback_listener.h"
#include "tests/support/tls_server_context.h"

namespace testsupport {
namespace {

constexpr int kSafetySeconds = 10;
constexpr unsigned char kSessionContext[] = "tls-http-server";

void Check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("TlsHttpServer: ") + what);
}

std::string CommonName(X509* cert) {
  if (cert == nullptr) return "";
  char name[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof name);
  return name;
}

}  // namespace

TlsHttpServer::TlsHttpServer(const CertifiedKey& server, const std::string& client_ca_pem) {
  ctx_ = NewTlsServerContext(server, "TlsHttpServer");
  SSL_CTX* ctx = ctx_;

  BIO* ca_bio = BIO_new_mem_buf(client_ca_pem.data(), static_cast<int>(client_ca_pem.size()));
  X509* ca = PEM_read_bio_X509(ca_bio, nullptr, nullptr, nullptr);
  BIO_free(ca_bio);
  Check(ca != nullptr && X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), ca) == 1, "client CA");
  X509_free(ca);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  // Resumption with client verification needs a session id context.
  SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1);

  LoopbackListener listener = ListenOnLoopback("TlsHttpServer");
  listen_fd_ = listener.fd;
  port_ = listener.port;
  thread_ = std::jthread([this](std::stop_token stop) { Serve(stop); });
}

TlsHttpServer::~TlsHttpServer() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  SSL_CTX_free(ctx_);
}

std::vector<TlsHandshake> TlsHttpServer::handshakes() const {
  std::lock_guard lock(mu_);
  return handshakes_;
}

void TlsHttpServer::Serve(std::stop_token stop) {
  while (!stop.stop_requested()) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    Handle(fd);
    ::close(fd);
  }
}

void TlsHttpServer::Handle(int fd) {
  timeval safety{kSafetySeconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof safety);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &safety, sizeof safety);
  SSL* ssl = SSL_new(ctx_);
  SSL_set_fd(ssl, fd);
  TlsHandshake handshake;
  handshake.ok = SSL_accept(ssl) == 1;
  ERR_clear_error();
  if (handshake.ok) {
    handshake.resumed = SSL_session_reused(ssl) == 1;
    X509* peer = SSL_get1_peer_certificate(ssl);
    handshake.client_common_name = CommonName(peer);
    X509_free(peer);
    std::string request;
    char buffer[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
      int n = SSL_read(ssl, buffer, sizeof buffer);
      if (n <= 0) break;
      request.append(buffer, static_cast<size_t>(n));
    }
    std::string response = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: " +
                           std::to_string(handshake.client_common_name.size()) + "\r\n\r\n" +
                           handshake.client_common_name;
    Record(handshake);  // before the answer, so a client that has it sees the record
    SSL_write(ssl, response.data(), static_cast<int>(response.size()));
    SSL_shutdown(ssl);
  } else {
    Record(handshake);
  }
  SSL_free(ssl);
}

void TlsHttpServer::Record(const TlsHandshake& handshake) {
  std::lock_guard lock(mu_);
  handshakes_.push_back(handshake);
}

}  // namespace testsupport
