// ConnectionPool: the idle keep-alive connections of one transport, shared by
// all its threads. A connection comes back only after a response that left it
// reusable; one taken out is checked first, and one the server closed (or
// that holds unrequested bytes) is dropped. At most kMaxIdle are kept, like
// client-go's per-host idle limit; the rest are closed.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "kube/client/connection.h"

namespace kube {

class ConnectionPool {
 public:
  static constexpr size_t kMaxIdle = 25;

  // An idle connection that still looks open, or null.
  std::unique_ptr<Connection> TakeIdle();
  void ReturnIdle(std::unique_ptr<Connection> connection);

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_;  // guarded by mu_; newest last
};

}  // namespace kube
