// ClientWaits: what each open connection of the HTTP endpoint waits for from
// its client and since when, so the server's one loop finds in O(1) the next
// deadline, the connections past theirs and the connection to drop when the
// connection cap is reached.
//
// A wait's timeout depends only on its kind, so each kind keeps its waits in
// start order, which is also deadline order. Only Begin() moves a deadline:
// a client trickling bytes into a request head cannot extend it.
//
// Eviction drops the connection that matters least: one lingering after its
// last answer, else the one that has waited longest for a request (a
// kept-alive idle one or an unfinished head, oldest first), else the oldest
// response its client is slow to read.
//
// Not thread-safe: owned by the server's loop thread.
#pragma once

#include <array>
#include <chrono>
#include <list>
#include <optional>
#include <unordered_map>
#include <vector>

#include "metrics/http_limits.h"

namespace metrics {

enum class ClientWait {
  kRequestHead,   // the rest of a request head (header_timeout)
  kNextRequest,   // a kept-alive connection's next request (idle_timeout)
  kResponseRead,  // the client to take the response (write_timeout)
  kLinger,        // the client to close after the last answer (linger_timeout)
};

class ClientWaits {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit ClientWaits(const HttpServerLimits& limits);

  // Starts (or restarts) connection `fd`'s wait of kind `wait` at `now`.
  void Begin(int fd, ClientWait wait, TimePoint now);
  void Forget(int fd);

  // The earliest deadline; nullopt without connections.
  std::optional<TimePoint> NextDeadline() const;
  // Connections whose deadline is at or before `now`.
  std::vector<int> Expired(TimePoint now) const;
  // The connection to drop to make room; nullopt without connections.
  std::optional<int> EvictionCandidate() const;

 private:
  struct Waiting {
    int fd;
    TimePoint since;
  };
  using Queue = std::list<Waiting>;
  struct Position {
    ClientWait wait;
    Queue::iterator at;
  };
  static constexpr size_t kWaitKinds = 4;

  Queue& QueueOf(ClientWait wait) { return queues_[static_cast<size_t>(wait)]; }
  const Queue& QueueOf(ClientWait wait) const { return queues_[static_cast<size_t>(wait)]; }

  const std::array<std::chrono::milliseconds, kWaitKinds> timeouts_;
  std::array<Queue, kWaitKinds> queues_;  // by ClientWait, each oldest first
  std::unordered_map<int, Position> positions_;
};

}  // namespace metrics
