// Connection: one TCP connection to a host, optionally carrying TLS, with
// every blocking step bounded: IO waits (poll) end at the caller's deadline or
// when the caller's wake descriptor turns readable (a stop request), whichever
// comes first. Socket non-blocking, TCP_NODELAY and keep-alive probes on.
//
// Not thread-safe; one user at a time (the transport's pool hands it over).
#pragma once

#include <openssl/types.h>  // SSL; the .cpp includes ssl.h

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace kube {

// What bounds one IO wait: a deadline (none: wait as long as it takes) and a
// descriptor that turns readable when the caller wants to stop (-1: none).
struct IoBounds {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  int wake_fd = -1;
};

class Connection {
 public:
  static constexpr std::chrono::seconds kConnectTimeout{10};

  // Resolves `host` and connects to the first address that answers, each
  // attempt bounded by kConnectTimeout and `bounds`.
  static base::Result<std::unique_ptr<Connection>> Open(const std::string& host, uint16_t port,
                                                        const IoBounds& bounds);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs the TLS handshake over this connection with `ssl` (taken over).
  base::Status StartTls(SSL* ssl, const IoBounds& bounds);

  base::Status WriteAll(std::string_view data, const IoBounds& bounds);
  // Reads what is available (waiting for at least one byte); 0 when the peer closed.
  base::Result<size_t> Read(char* buffer, size_t size, const IoBounds& bounds);

  // For a connection that sat idle in a pool: false when the peer closed it
  // or sent something no request asked for.
  bool IdleAndOpen();

  // One non-blocking attempt each, for an event loop that polls fd() itself.
  // `moved` bytes went through; when none could, `wants` names the poll
  // events to wait for. `closed`: the peer ended the stream (reads only).
  struct Attempt {
    size_t moved = 0;
    short wants = 0;
    bool closed = false;
  };
  base::Result<Attempt> TryRead(char* buffer, size_t size);
  base::Result<Attempt> TryWrite(std::string_view data);
  int fd() const { return fd_; }
  // The protocol the TLS handshake settled on through ALPN ("h2",
  // "http/1.1"), or "" for none or a plain connection.
  std::string_view NegotiatedProtocol() const;

 private:
  explicit Connection(int fd) : fd_(fd) {}
  // Waits until the socket is ready for `events`; an error on timeout or wake.
  base::Status Wait(short events, const IoBounds& bounds);
  // Maps an SSL_ERROR_WANT_* to the poll events to wait for; nullopt for a real error.
  std::optional<short> TlsWants(int ssl_result) const;

  const int fd_;
  SSL* ssl_ = nullptr;
};

}  // namespace kube
