// ConnectProxy: an HTTP proxy on 127.0.0.1 that serves CONNECT only, for
// tests of clients that tunnel through one: it records each CONNECT request
// head, connects to the named port on 127.0.0.1 whatever host the request
// names (so tests may use names nothing resolves), answers 200 and relays
// bytes both ways until either side closes.
//
// Freeze() makes it a silent network path: tunnels stay open but carry no
// more bytes either way.
//
// One tunnel at a time; waits have a safety bound.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace testsupport {

class ConnectProxy {
 public:
  ConnectProxy();  // throws std::runtime_error if it cannot listen
  ~ConnectProxy();
  ConnectProxy(const ConnectProxy&) = delete;
  ConnectProxy& operator=(const ConnectProxy&) = delete;

  int port() const { return port_; }
  // Each request head received, request line and headers as sent.
  std::vector<std::string> requests() const;
  void Freeze() { frozen_ = true; }

 private:
  void Serve(std::stop_token stop);
  void Tunnel(int client, std::stop_token stop);

  int listen_fd_ = -1;
  int port_ = 0;
  mutable std::mutex mu_;  // guards requests_
  std::vector<std::string> requests_;
  std::atomic<bool> frozen_ = false;
  std::jthread thread_;
};

}  // namespace testsupport
