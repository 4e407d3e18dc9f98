#include "metrics/http_connection_loop.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

namespace metrics {
namespace {

// Accepts per turn, so a connection flood cannot starve established clients.
constexpr int kAcceptsPerTurn = 64;
// How long accepting rests when the process has no descriptor left (the
// backlog keeps the clients meanwhile), as Go's server backs off.
constexpr std::chrono::milliseconds kAcceptPause{100};

base::Error Errno(std::string_view what) {
  return base::Error(std::string(what) + ": " + std::strerror(errno));
}

bool Watch(int epoll_fd, int op, int fd, uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  return epoll_ctl(epoll_fd, op, fd, &event) == 0;
}

}  // namespace

base::Result<std::unique_ptr<HttpConnectionLoop>> HttpConnectionLoop::Create(
    int listen_fd, int wake_fd, const HttpServerLimits& limits, HttpConnection::Responder respond) {
  int flags = fcntl(listen_fd, F_GETFL);
  if (flags < 0 || fcntl(listen_fd, F_SETFL, flags | O_NONBLOCK) != 0) return Errno("fcntl");
  int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) return Errno("epoll_create1");
  if (!Watch(epoll_fd, EPOLL_CTL_ADD, listen_fd, EPOLLIN) ||
      !Watch(epoll_fd, EPOLL_CTL_ADD, wake_fd, EPOLLIN)) {
    base::Error error = Errno("epoll_ctl");
    close(epoll_fd);
    return error;
  }
  return std::unique_ptr<HttpConnectionLoop>(
      new HttpConnectionLoop(epoll_fd, listen_fd, wake_fd, limits, std::move(respond)));
}

HttpConnectionLoop::HttpConnectionLoop(int epoll_fd, int listen_fd, int wake_fd,
                                       const HttpServerLimits& limits,
                                       HttpConnection::Responder respond)
    : epoll_fd_(epoll_fd),
      listen_fd_(listen_fd),
      wake_fd_(wake_fd),
      limits_(limits),
      respond_(std::move(respond)),
      waits_(limits) {}

HttpConnectionLoop::~HttpConnectionLoop() {
  connections_.clear();
  close(epoll_fd_);
}

void HttpConnectionLoop::Run() {
  std::array<epoll_event, 64> events;
  while (true) {
    int ready = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()),
                           MillisecondsToNextDeadline(std::chrono::steady_clock::now()));
    if (ready < 0 && errno != EINTR) return;  // only a broken epoll descriptor gets here
    const TimePoint now = std::chrono::steady_clock::now();
    bool accept_ready = false;
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) return;
      if (fd == listen_fd_) {
        accept_ready = true;
      } else {
        Drive(fd, events[i].events, now);
      }
    }
    for (int fd : waits_.Expired(now)) Drop(fd);
    // Accepting last: a new connection may reuse the number of one dropped
    // above, and must not receive that one's events of this turn.
    if (accept_ready) AcceptPending(now);
    ResumeAcceptingIfDue(now);
  }
}

void HttpConnectionLoop::AcceptPending(TimePoint now) {
  for (int i = 0; i < kAcceptsPerTurn; ++i) {
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == ECONNABORTED || errno == EINTR) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        PauseAccepting(now);
      }
      return;
    }
    if (connections_.size() >= limits_.max_connections) {
      if (std::optional<int> evicted = waits_.EvictionCandidate()) Drop(*evicted);
    }
    auto connection = std::make_unique<HttpConnection>(fd, limits_.max_header_bytes, respond_);
    if (!Watch(epoll_fd_, EPOLL_CTL_ADD, fd, EPOLLIN)) continue;  // destroying it closes fd
    waits_.Begin(fd, connection->wait(), now);
    connections_.emplace(fd, std::move(connection));
  }
}

void HttpConnectionLoop::Drive(int fd, uint32_t events, TimePoint now) {
  auto it = connections_.find(fd);
  if (it == connections_.end()) return;  // dropped earlier in this turn
  HttpConnection& connection = *it->second;
  if (events & (EPOLLERR | EPOLLHUP)) {
    Drop(fd);
    return;
  }
  const uint64_t waits_begun = connection.waits_begun();
  const bool wanted_write = connection.wants_write();
  if (wanted_write) {
    connection.OnWritable();
  } else {
    connection.OnReadable();
  }
  if (connection.closed()) {
    Drop(fd);
    return;
  }
  if (connection.waits_begun() != waits_begun) waits_.Begin(fd, connection.wait(), now);
  if (connection.wants_write() != wanted_write &&
      !Watch(epoll_fd_, EPOLL_CTL_MOD, fd, connection.wants_write() ? EPOLLOUT : EPOLLIN)) {
    Drop(fd);
  }
}

void HttpConnectionLoop::Drop(int fd) {
  waits_.Forget(fd);
  connections_.erase(fd);  // closing the socket also removes it from epoll
}

void HttpConnectionLoop::PauseAccepting(TimePoint now) {
  if (Watch(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, 0)) accept_resumes_at_ = now + kAcceptPause;
}

void HttpConnectionLoop::ResumeAcceptingIfDue(TimePoint now) {
  if (!accept_resumes_at_ || now < *accept_resumes_at_) return;
  if (Watch(epoll_fd_, EPOLL_CTL_MOD, listen_fd_, EPOLLIN)) accept_resumes_at_.reset();
}

int HttpConnectionLoop::MillisecondsToNextDeadline(TimePoint now) const {
  std::optional<TimePoint> next = waits_.NextDeadline();
  if (accept_resumes_at_ && (!next || *accept_resumes_at_ < *next)) next = accept_resumes_at_;
  if (!next) return -1;
  if (*next <= now) return 0;
  // Rounded up: waking a little early would only spin until the deadline.
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(*next - now).count());
}

}  // namespace metrics
