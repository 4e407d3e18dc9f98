// The listening socket of an in-test server: TCP on 127.0.0.1, at a port the
// kernel picks (bind to port 0), so parallel tests never collide.
#pragma once

#include <string_view>

namespace testsupport {

struct LoopbackListener {
  int fd = -1;  // owned by the caller (close it)
  int port = 0;
};

// Throws std::runtime_error "<owner>: cannot listen on 127.0.0.1" on failure.
LoopbackListener ListenOnLoopback(std::string_view owner);

}  // namespace testsupport
