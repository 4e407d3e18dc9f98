#include "bench/api_requests.h"

#include <functional>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

namespace bench {
namespace {

std::string Label(std::string_view labels, std::string_view name) {
  std::string key = std::string(name) + "=\"";
  for (size_t pos = labels.find(key); pos != std::string_view::npos;
       pos = labels.find(key, pos + 1)) {
    if (pos != 0 && labels[pos - 1] != ',' && labels[pos - 1] != '{') continue;
    size_t start = pos + key.size();
    return std::string(labels.substr(start, labels.find('"', start) - start));
  }
  return "";
}

// Calls `series(labels, value)` for every series of `metric` in the API
// server's /metrics; `labels` keeps its braces: {verb="GET",...}.
base::Status ForEachSeries(kube::Client& admin, std::string_view metric,
                           const std::function<void(std::string_view, double)>& series) {
  auto body = admin.Request("GET", "/metrics");
  if (!body.ok()) return body.error().Wrap("scraping kube-apiserver /metrics");
  const std::string prefix = std::string(metric) + "{";
  std::istringstream lines(*body);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with(prefix)) continue;
    auto close = line.rfind('}');
    std::string_view labels(line.data() + prefix.size() - 1, close - prefix.size() + 2);
    series(labels, std::stod(line.substr(close + 1)));
  }
  return {};
}

bool IsWrite(const std::string& key) {
  for (std::string_view verb : {"POST ", "PUT ", "PATCH ", "DELETE ", "APPLY "}) {
    if (key.starts_with(verb)) return true;
  }
  return false;
}

// "<verb> <resource>[/<subresource>][ <code>]"
bool IsEvents(const std::string& key) {
  std::string_view resource = std::string_view(key).substr(key.find(' ') + 1);
  return resource.substr(0, resource.find(' ')) == "events";
}

}  // namespace

base::Result<RequestCounts> ScrapeRequestCounts(kube::Client& admin, const RequestFilter& filter) {
  RequestCounts counts;
  auto scraped =
      ForEachSeries(admin, "apiserver_request_total", [&](std::string_view labels, double value) {
        std::string resource = Label(labels, "resource");
        std::string verb = Label(labels, "verb");
        if (!filter.resources.contains(resource)) return;
        std::string subresource = Label(labels, "subresource");
        std::string key = verb + " " + resource + (subresource.empty() ? "" : "/" + subresource);
        if (filter.generator_writes.contains(key)) return;
        // Refused requests (409 conflicts, 404s, 422 failed tests) count apart.
        if (std::string code = Label(labels, "code"); !code.starts_with('2')) key += " " + code;
        counts[key] += value;
      });
  if (!scraped.ok()) return scraped.error();
  return counts;
}

base::Result<WatchCounts> ScrapeWatchCounts(kube::Client& admin) {
  WatchCounts counts;
  auto scraped = ForEachSeries(admin, "apiserver_longrunning_requests",
                               [&](std::string_view labels, double value) {
                                 if (Label(labels, "verb") != "WATCH") return;
                                 counts[Label(labels, "resource")] += value;
                               });
  if (!scraped.ok()) return scraped.error();
  return counts;
}

RequestCounts Difference(const RequestCounts& after, const RequestCounts& before) {
  RequestCounts diff;
  for (const auto& [key, value] : after) {
    auto it = before.find(key);
    double delta = value - (it == before.end() ? 0 : it->second);
    if (delta > 0) diff[key] = delta;
  }
  return diff;
}

base::Result<std::chrono::steady_clock::time_point> RequestsSettled(kube::Client& admin,
                                                                    const RequestFilter& filter,
                                                                    std::chrono::seconds quiet,
                                                                    std::chrono::seconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  auto last = ScrapeRequestCounts(admin, filter);
  if (!last.ok()) return last.error();
  auto changed = Clock::now();
  while (Clock::now() - changed < quiet) {
    if (Clock::now() >= deadline) return base::Error("the API requests did not settle");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    auto counts = ScrapeRequestCounts(admin, filter);
    if (!counts.ok()) return counts.error();
    if (*counts != *last) {
      changed = Clock::now();
      last = std::move(counts);
    }
  }
  return changed;
}

double Total(const RequestCounts& counts) {
  double total = 0;
  for (const auto& [key, value] : counts) total += value;
  return total;
}

double EventWrites(const RequestCounts& counts) {
  double total = 0;
  for (const auto& [key, value] : counts) {
    if (IsWrite(key) && IsEvents(key)) total += value;
  }
  return total;
}

double ObjectWrites(const RequestCounts& counts) {
  double total = 0;
  for (const auto& [key, value] : counts) {
    if (IsWrite(key) && !IsEvents(key)) total += value;
  }
  return total;
}

}  // namespace bench
