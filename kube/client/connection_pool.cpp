#include "kube/client/connection_pool.h"

namespace kube {

std::unique_ptr<Connection> ConnectionPool::TakeIdle() {
  while (true) {
    std::unique_ptr<Connection> connection;
    {
      std::lock_guard lock(mu_);
      if (idle_.empty()) return nullptr;
      connection = std::move(idle_.back());
      idle_.pop_back();
    }
    if (connection->IdleAndOpen()) return connection;
  }
}

void ConnectionPool::ReturnIdle(std::unique_ptr<Connection> connection) {
  std::lock_guard lock(mu_);
  if (idle_.size() < kMaxIdle) idle_.push_back(std::move(connection));
}

}  // namespace kube
