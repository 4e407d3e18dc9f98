// A minimal HTTP/1.1 GET over loopback TCP for tests that scrape the
// attacher's own endpoint (/metrics, /healthz/leader-election).
#pragma once

#include <string>

namespace testsupport {

// GET `path` from 127.0.0.1:`port` with "Connection: close"; the raw response
// (status line, headers, body), or "" if nobody listens.
std::string HttpGet(int port, const std::string& path);

// The body of a raw response: what follows the first blank line.
std::string HttpBody(const std::string& response);

}  // namespace testsupport
