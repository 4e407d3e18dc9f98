// HttpConnectionLoop: the HTTP endpoint's one thread. A single epoll loop
// over non-blocking sockets accepts connections and drives each through
// HttpConnection, so no client can delay another: a silent or slow client
// costs a socket and a few bytes, never the thread. Every wait on a client
// has a deadline (ClientWaits); at the connection cap, or when it is full of
// idle clients, the longest-waiting connection is dropped for the new one.
// Handlers run on this thread, one request per connection per turn, so they
// must be quick (rendering metrics, reading a flag).
//
// Time is the real monotonic clock, not base::Clock: epoll_wait's timeout
// cannot follow a fake clock. The deadline rules themselves (ClientWaits)
// take time as an argument and are tested with made-up times.
//
// Run() returns once the wake descriptor becomes readable; destroying the
// loop closes every connection. Not thread-safe: Run() on one thread.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <unordered_map>

#include "base/result.h"
#include "metrics/http_client_waits.h"
#include "metrics/http_connection.h"
#include "metrics/http_limits.h"

namespace metrics {

class HttpConnectionLoop {
 public:
  // Serves the listening socket `listen_fd` (made non-blocking here) until
  // `wake_fd` is readable; both stay owned by the caller.
  static base::Result<std::unique_ptr<HttpConnectionLoop>> Create(
      int listen_fd, int wake_fd, const HttpServerLimits& limits,
      HttpConnection::Responder respond);
  ~HttpConnectionLoop();
  HttpConnectionLoop(const HttpConnectionLoop&) = delete;
  HttpConnectionLoop& operator=(const HttpConnectionLoop&) = delete;

  void Run();

 private:
  using TimePoint = std::chrono::steady_clock::time_point;

  HttpConnectionLoop(int epoll_fd, int listen_fd, int wake_fd, const HttpServerLimits& limits,
                     HttpConnection::Responder respond);
  void AcceptPending(TimePoint now);
  void Drive(int fd, uint32_t events, TimePoint now);
  void Drop(int fd);
  void PauseAccepting(TimePoint now);
  void ResumeAcceptingIfDue(TimePoint now);
  int MillisecondsToNextDeadline(TimePoint now) const;

  const int epoll_fd_;
  const int listen_fd_;
  const int wake_fd_;
  const HttpServerLimits limits_;
  const HttpConnection::Responder respond_;
  std::unordered_map<int, std::unique_ptr<HttpConnection>> connections_;
  ClientWaits waits_;
  // Set while accepting is paused because the process ran out of descriptors.
  std::optional<TimePoint> accept_resumes_at_;
};

}  // namespace metrics
