#include "kube/client/connection.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "kube/client/tls_client_context.h"

namespace kube {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::string ErrnoText(int error) { return std::strerror(error); }

// Milliseconds poll may wait before `deadline`; -1 without one.
int PollTimeoutMs(const std::optional<SteadyClock::time_point>& deadline) {
  if (!deadline) return -1;
  auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - SteadyClock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1 << 30));
}

// Connects non-blocking socket `fd` to `address`, waiting at most until `bounds`' end.
base::Status ConnectSocket(int fd, const addrinfo& address, const IoBounds& bounds) {
  if (::connect(fd, address.ai_addr, address.ai_addrlen) == 0) return {};
  if (const int failed = errno; failed != EINPROGRESS) {
    return base::Error::Transport(ErrnoText(failed), failed);
  }
  pollfd fds[2] = {{fd, POLLOUT, 0}, {bounds.wake_fd, POLLIN, 0}};
  int ready;
  do {
    ready = ::poll(fds, bounds.wake_fd >= 0 ? 2 : 1, PollTimeoutMs(bounds.deadline));
  } while (ready < 0 && errno == EINTR);
  if (ready < 0) return base::Error::Transport(ErrnoText(errno));
  if (fds[1].revents != 0 && bounds.wake_fd >= 0) return base::Error::Transport("stopped");
  if (ready == 0) return base::Error::Transport("connect timed out");
  int error = 0;
  socklen_t length = sizeof error;
  ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
  if (error != 0) return base::Error::Transport(ErrnoText(error), error);
  return {};
}

// OpenSSL's socket BIO writes with write(2), which raises SIGPIPE when the
// peer has gone; the binaries do not ignore that signal. This BIO is the
// socket BIO with its writes made through send(MSG_NOSIGNAL).
int SendNoSignal(BIO* bio, const char* data, int size) {
  errno = 0;
  ssize_t n = ::send(static_cast<int>(BIO_get_fd(bio, nullptr)), data, static_cast<size_t>(size),
                     MSG_NOSIGNAL);
  BIO_clear_retry_flags(bio);
  if (n <= 0 && BIO_sock_should_retry(static_cast<int>(n))) BIO_set_retry_write(bio);
  return static_cast<int>(n);
}

const BIO_METHOD* NoSignalSocketMethod() {
  static BIO_METHOD* const method = [] {
    const BIO_METHOD* socket = BIO_s_socket();
    BIO_METHOD* m = BIO_meth_new(BIO_TYPE_SOCKET, "socket without SIGPIPE");
    BIO_meth_set_write(m, &SendNoSignal);
    BIO_meth_set_read(m, BIO_meth_get_read(socket));
    BIO_meth_set_puts(m, BIO_meth_get_puts(socket));
    BIO_meth_set_ctrl(m, BIO_meth_get_ctrl(socket));
    BIO_meth_set_create(m, BIO_meth_get_create(socket));
    BIO_meth_set_destroy(m, BIO_meth_get_destroy(socket));
    return m;
  }();
  return method;
}

}  // namespace

base::Result<std::unique_ptr<Connection>> Connection::Open(const std::string& host, uint16_t port,
                                                           const IoBounds& bounds) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_ADDRCONFIG;
  addrinfo* addresses = nullptr;
  const std::string service = std::to_string(port);
  if (int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &addresses); rc != 0) {
    return base::Error::Transport("resolving " + host + ": " + gai_strerror(rc));
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owned(addresses, &freeaddrinfo);
  std::string last_error = "no address";
  int last_errno = 0;
  for (const addrinfo* a = addresses; a != nullptr; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last_error = ErrnoText(errno);
      continue;
    }
    std::unique_ptr<Connection> connection(new Connection(fd));
    IoBounds attempt = bounds;
    auto connect_deadline = SteadyClock::now() + kConnectTimeout;
    if (!attempt.deadline || connect_deadline < *attempt.deadline)
      attempt.deadline = connect_deadline;
    if (auto status = ConnectSocket(fd, *a, attempt); !status.ok()) {
      last_error = status.error().message;
      last_errno = status.error().code;
      continue;
    }
    int on = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    return connection;
  }
  // The errno of the last address tried: ECONNREFUSED says nothing listens there.
  return base::Error::Transport("connecting to " + host + " port " + service + ": " + last_error,
                                last_errno);
}

Connection::~Connection() {
  if (ssl_) {
    // A close_notify (best effort, never waited for) also keeps OpenSSL from
    // marking the session unresumable, as it does after an unannounced close.
    if (SSL_is_init_finished(ssl_)) SSL_shutdown(ssl_);
    ERR_clear_error();
    SSL_free(ssl_);
  }
  ::close(fd_);
}

base::Status Connection::Wait(short events, const IoBounds& bounds) {
  pollfd fds[2] = {{fd_, events, 0}, {bounds.wake_fd, POLLIN, 0}};
  while (true) {
    int ready = ::poll(fds, bounds.wake_fd >= 0 ? 2 : 1, PollTimeoutMs(bounds.deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return base::Error::Transport(ErrnoText(errno));
    if (bounds.wake_fd >= 0 && fds[1].revents != 0) return base::Error::Transport("stopped");
    if (ready == 0) return base::Error::Transport("timed out");
    return {};  // readable, writable, or an error the next IO call reports
  }
}

std::optional<short> Connection::TlsWants(int ssl_result) const {
  switch (SSL_get_error(ssl_, ssl_result)) {
    case SSL_ERROR_WANT_READ:
      return POLLIN;
    case SSL_ERROR_WANT_WRITE:
      return POLLOUT;
    default:
      return std::nullopt;
  }
}

base::Status Connection::StartTls(SSL* ssl, const IoBounds& bounds) {
  ssl_ = ssl;
  BIO* bio = BIO_new(NoSignalSocketMethod());
  if (bio == nullptr) return base::Error::Transport("TLS: " + TakeOpenSslErrors("BIO_new failed"));
  BIO_set_fd(bio, fd_, BIO_NOCLOSE);
  SSL_set_bio(ssl_, bio, bio);
  ERR_clear_error();
  while (true) {
    int rc = SSL_connect(ssl_);
    if (rc == 1) return {};
    auto wants = TlsWants(rc);
    if (!wants) {
      return base::Error::Transport("TLS handshake: " + TlsClientContext::HandshakeError(ssl_));
    }
    if (auto status = Wait(*wants, bounds); !status.ok())
      return status.error().Wrap("TLS handshake");
  }
}

base::Status Connection::WriteAll(std::string_view data, const IoBounds& bounds) {
  while (!data.empty()) {
    if (ssl_) {
      ERR_clear_error();
      size_t written = 0;
      int rc = SSL_write_ex(ssl_, data.data(), data.size(), &written);
      if (rc == 1) {
        data.remove_prefix(written);
        continue;
      }
      auto wants = TlsWants(rc);
      if (!wants)
        return base::Error::Transport("TLS write: " + TakeOpenSslErrors("connection lost"));
      if (auto status = Wait(*wants, bounds); !status.ok()) return status;
      continue;
    }
    ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n >= 0) {
      data.remove_prefix(static_cast<size_t>(n));
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (auto status = Wait(POLLOUT, bounds); !status.ok()) return status;
    } else if (errno != EINTR) {
      return base::Error::Transport("write: " + ErrnoText(errno));
    }
  }
  return {};
}

base::Result<size_t> Connection::Read(char* buffer, size_t size, const IoBounds& bounds) {
  while (true) {
    if (ssl_) {
      ERR_clear_error();
      size_t got = 0;
      int rc = SSL_read_ex(ssl_, buffer, size, &got);
      if (rc == 1) return got;
      if (SSL_get_error(ssl_, rc) == SSL_ERROR_ZERO_RETURN) return size_t{0};
      auto wants = TlsWants(rc);
      if (!wants) {
        // SSL_OP_IGNORE_UNEXPECTED_EOF: a plain close is ZERO_RETURN, so this is a real failure.
        return base::Error::Transport("TLS read: " + TakeOpenSslErrors("connection lost"));
      }
      if (auto status = Wait(*wants, bounds); !status.ok()) return status.error();
      continue;
    }
    ssize_t n = ::recv(fd_, buffer, size, 0);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (auto status = Wait(POLLIN, bounds); !status.ok()) return status.error();
    } else if (errno != EINTR) {
      return base::Error::Transport("read: " + ErrnoText(errno));
    }
  }
}

base::Result<Connection::Attempt> Connection::TryRead(char* buffer, size_t size) {
  Attempt attempt;
  if (ssl_) {
    ERR_clear_error();
    int rc = SSL_read_ex(ssl_, buffer, size, &attempt.moved);
    if (rc == 1) return attempt;
    if (SSL_get_error(ssl_, rc) == SSL_ERROR_ZERO_RETURN) {
      attempt.closed = true;
      return attempt;
    }
    auto wants = TlsWants(rc);
    if (!wants) return base::Error::Transport("TLS read: " + TakeOpenSslErrors("connection lost"));
    attempt.wants = *wants;
    return attempt;
  }
  while (true) {
    ssize_t n = ::recv(fd_, buffer, size, 0);
    if (n > 0) {
      attempt.moved = static_cast<size_t>(n);
    } else if (n == 0) {
      attempt.closed = true;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      attempt.wants = POLLIN;
    } else if (errno == EINTR) {
      continue;
    } else {
      return base::Error::Transport("read: " + ErrnoText(errno));
    }
    return attempt;
  }
}

base::Result<Connection::Attempt> Connection::TryWrite(std::string_view data) {
  Attempt attempt;
  if (ssl_) {
    ERR_clear_error();
    int rc = SSL_write_ex(ssl_, data.data(), data.size(), &attempt.moved);
    if (rc == 1) return attempt;
    auto wants = TlsWants(rc);
    if (!wants) return base::Error::Transport("TLS write: " + TakeOpenSslErrors("connection lost"));
    attempt.wants = *wants;
    return attempt;
  }
  while (true) {
    ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n >= 0) {
      attempt.moved = static_cast<size_t>(n);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      attempt.wants = POLLOUT;
    } else if (errno == EINTR) {
      continue;
    } else {
      return base::Error::Transport("write: " + ErrnoText(errno));
    }
    return attempt;
  }
}

std::string_view Connection::NegotiatedProtocol() const {
  if (!ssl_) return {};
  const unsigned char* name = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(ssl_, &name, &length);
  return {reinterpret_cast<const char*>(name), length};
}

bool Connection::IdleAndOpen() {
  pollfd fd{fd_, POLLIN, 0};
  // With read-ahead, bytes already read from a quiet socket may wait in OpenSSL.
  bool buffered = ssl_ != nullptr && SSL_has_pending(ssl_) == 1;
  if (!buffered && ::poll(&fd, 1, 0) == 0) return true;
  if (ssl_) {
    // Readable may mean only TLS records that carry no data (session
    // tickets): the connection is still good when no data or close follows.
    ERR_clear_error();
    char byte;
    size_t got = 0;
    int rc = SSL_peek_ex(ssl_, &byte, 1, &got);
    bool open = rc != 1 && SSL_get_error(ssl_, rc) == SSL_ERROR_WANT_READ;
    ERR_clear_error();
    return open;
  }
  char byte;
  ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

}  // namespace kube
