// A minimal HTTP/1.1 GET over loopback TCP for tests that scrape the
// attacher's own endpoint (/metrics, /healthz/leader-election).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace testsupport {

// GET `path` from 127.0.0.1:`port` with "Connection: close"; the raw response
// (status line, headers, body), or "" if nobody listens.
std::string HttpGet(int port, const std::string& path);

// The body of a raw response: what follows the first blank line, its chunks
// joined when it came chunked (Go's server chunks a long /metrics answer).
std::string HttpBody(const std::string& response);

// The value of the first line of the metrics text `body` that starts with
// `family` + "{" and holds every label of `labels` (each `name="value"`),
// whatever their order; nullopt when there is none.
std::optional<double> SeriesValue(const std::string& body, const std::string& family,
                                  const std::vector<std::string>& labels);
inline bool HasSeries(const std::string& body, const std::string& family,
                      const std::vector<std::string>& labels) {
  return SeriesValue(body, family, labels).has_value();
}

// Scrapes 127.0.0.1:`port`/metrics until it has a series of `family` with
// every label of `labels` (HasSeries) or `timeout` passed; the last body
// scraped.
std::string AwaitSeries(int port, const std::string& family, const std::vector<std::string>& labels,
                        std::chrono::milliseconds timeout);

}  // namespace testsupport
