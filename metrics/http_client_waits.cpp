#include "metrics/http_client_waits.h"

namespace metrics {

ClientWaits::ClientWaits(const HttpServerLimits& limits)
    : timeouts_{limits.header_timeout, limits.idle_timeout, limits.write_timeout,
                limits.linger_timeout} {}

void ClientWaits::Begin(int fd, ClientWait wait, TimePoint now) {
  Forget(fd);
  Queue& queue = QueueOf(wait);
  queue.push_back({fd, now});
  positions_.emplace(fd, Position{wait, std::prev(queue.end())});
}

void ClientWaits::Forget(int fd) {
  auto it = positions_.find(fd);
  if (it == positions_.end()) return;
  QueueOf(it->second.wait).erase(it->second.at);
  positions_.erase(it);
}

std::optional<ClientWaits::TimePoint> ClientWaits::NextDeadline() const {
  std::optional<TimePoint> next;
  for (size_t kind = 0; kind < kWaitKinds; ++kind) {
    if (queues_[kind].empty()) continue;
    TimePoint deadline = queues_[kind].front().since + timeouts_[kind];
    if (!next || deadline < *next) next = deadline;
  }
  return next;
}

std::vector<int> ClientWaits::Expired(TimePoint now) const {
  std::vector<int> expired;
  for (size_t kind = 0; kind < kWaitKinds; ++kind) {
    for (const Waiting& waiting : queues_[kind]) {
      if (waiting.since + timeouts_[kind] > now) break;
      expired.push_back(waiting.fd);
    }
  }
  return expired;
}

std::optional<int> ClientWaits::EvictionCandidate() const {
  if (const Queue& linger = QueueOf(ClientWait::kLinger); !linger.empty()) {
    return linger.front().fd;
  }
  const Queue& idle = QueueOf(ClientWait::kNextRequest);
  const Queue& head = QueueOf(ClientWait::kRequestHead);
  if (!idle.empty() && (head.empty() || idle.front().since <= head.front().since)) {
    return idle.front().fd;
  }
  if (!head.empty()) return head.front().fd;
  if (const Queue& reading = QueueOf(ClientWait::kResponseRead); !reading.empty()) {
    return reading.front().fd;
  }
  return std::nullopt;
}

}  // namespace metrics
