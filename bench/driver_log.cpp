#include "bench/driver_log.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <set>

namespace bench {
namespace {

// The time of a klog text line "Immdd hh:mm:ss.uuuuuu ...", which has no
// year: the current one, or the previous when that would lie in the future
// (a run across New Year).
std::optional<std::chrono::system_clock::time_point> LineTime(std::string_view line) {
  int month, day, hour, minute, second, micros;
  std::string text(line.substr(0, 22));
  if (std::sscanf(text.c_str() + 1, "%2d%2d %2d:%2d:%2d.%6d", &month, &day, &hour, &minute, &second,
                  &micros) != 6) {
    return std::nullopt;
  }
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::tm tm{};
  tm.tm_year = local.tm_year;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  std::time_t secs = std::mktime(&tm);
  if (secs > now + 86400) {
    tm.tm_year -= 1;
    tm.tm_isdst = -1;
    secs = std::mktime(&tm);
  }
  return std::chrono::system_clock::from_time_t(secs) + std::chrono::microseconds(micros);
}

// The value of `"key":"` inside a Go-quoted JSON field (quotes escaped).
std::string EscapedJsonString(std::string_view line, std::string_view key) {
  std::string marker = "\\\"" + std::string(key) + "\\\":\\\"";
  auto start = line.find(marker);
  if (start == std::string_view::npos) return "";
  start += marker.size();
  auto end = line.find("\\\"", start);
  return std::string(line.substr(start, end - start));
}

}  // namespace

base::Result<DriverLog> ReadDriverLog(const std::string& path) {
  std::ifstream in(path);
  if (!in) return base::Error("cannot read the driver log " + path);
  DriverLog log;
  for (std::string line; std::getline(in, line);) {
    auto open = line.find("] \"");
    if (open == std::string::npos || line.find(" request=") == std::string::npos) continue;
    auto close = line.find('"', open + 3);
    std::string method = line.substr(open + 3, close - open - 3);
    log.calls[method] += 1;
    if (method != "CreateSnapshot" || line.find(" code=\"OK\"") == std::string::npos ||
        line.find("\\\"ready_to_use\\\":true") == std::string::npos) {
      continue;
    }
    std::string name = EscapedJsonString(line, "name");
    auto when = LineTime(line);
    if (!name.empty() && when && !log.first_ready.contains(name)) log.first_ready[name] = *when;
  }
  return log;
}

double OperationCalls(const DriverLog& log) {
  static const std::set<std::string, std::less<>> kHousekeeping = {
      "GetPluginInfo", "GetPluginCapabilities", "ControllerGetCapabilities", "Probe"};
  double total = 0;
  for (const auto& [method, count] : log.calls) {
    if (!kHousekeeping.contains(method)) total += count;
  }
  return total;
}

std::chrono::steady_clock::time_point ToSteady(std::chrono::system_clock::time_point wall) {
  auto offset = std::chrono::steady_clock::now().time_since_epoch() -
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::system_clock::now().time_since_epoch());
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(wall.time_since_epoch()) +
      offset);
}

}  // namespace bench
