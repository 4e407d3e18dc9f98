// Http2Options: whether the transport offers HTTP/2 and how it checks an
// HTTP/2 connection's health, from the environment variables client-go reads
// for the same: DISABLE_HTTP2 (any non-empty value: HTTP/1.1 only),
// HTTP2_READ_IDLE_TIMEOUT_SECONDS (default 30; 0 turns the check off) and
// HTTP2_PING_TIMEOUT_SECONDS (default 15). A value that is not a number logs a
// warning and keeps the default.
#pragma once

#include <chrono>
#include <functional>

namespace kube {

struct Http2Options {
  bool enabled = true;
  // A PING after this long without a byte from the server; 0: never.
  std::chrono::milliseconds read_idle{std::chrono::seconds(30)};
  // The connection fails when a PING's answer takes longer.
  std::chrono::milliseconds ping_timeout{std::chrono::seconds(15)};

  // `lookup` returns a variable's value, or null when it is unset.
  static Http2Options FromEnvironment(const std::function<const char*(const char*)>& lookup);
  static Http2Options FromProcess();
};

}  // namespace kube
