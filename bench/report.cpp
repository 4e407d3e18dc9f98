#include "bench/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "bench/percentile.h"

namespace bench {
namespace {

// A speed target: ours / `against` for `metric` must be <= `bound` (or >= for
// figures where more is better), in cells of `workload` (and `qps` if set).
// A sidecar's figure may come from the mixed contender (our sidecar beside
// upstream's controller) when ours did not run.
struct Target {
  std::string description;
  std::string workload;
  std::string metric;
  std::string against;  // "upstream" or "floor"
  double bound;
  bool higher_is_better;
  std::optional<double> qps;
};

const std::vector<Target>& Targets() {
  static const std::vector<Target> targets = {
      {"backlog throughput >= 1.25x upstream",
       "backlog",
       "attach_va_per_s",
       "upstream",
       1.25,
       true,
       {}},
      {"backlog CPU seconds <= 0.33x upstream", "backlog", "cpu_s", "upstream", 0.33, false, {}},
      {"backlog peak RSS <= 0.25x upstream", "backlog", "peak_rss_mb", "upstream", 0.25, false, {}},
      {"scale start-to-synced <= 0.5x upstream", "scale", "synced_s", "upstream", 0.5, false, {}},
      {"scale peak RSS <= 0.25x upstream", "scale", "peak_rss_mb", "upstream", 0.25, false, {}},
      {"scale steady RSS <= 0.25x upstream", "scale", "rss_mb", "upstream", 0.25, false, {}},
      {"backlog attach time <= 1.2x floor, unthrottled", "backlog", "attach_s", "floor", 1.2, false,
       1000},
      {"mixed-storm attach p99 <= 0.5x upstream",
       "storm",
       "attach_p99_ms",
       "upstream",
       0.5,
       false,
       {}},
      // The snapshot pair (#14).
      {"snapshot backlog wall <= 0.5x upstream at QPS 5", "snap-backlog", "wall_s", "upstream", 0.5,
       false, 5},
      {"snapshot backlog wall <= 1.2x floor, unthrottled", "snap-backlog", "wall_s", "floor", 1.2,
       false, 1000},
      {"snapshot readiness: driver-ready to readyToUse p99 <= 0.25x upstream",
       "snap-readiness",
       "driver_to_ready_p99_ms",
       "upstream",
       0.25,
       false,
       {}},
      {"snapshot backlog controller CPU <= 0.33x upstream",
       "snap-backlog",
       "controller_cpu_s",
       "upstream",
       0.33,
       false,
       {}},
      {"snapshot backlog sidecar CPU <= 0.33x upstream",
       "snap-backlog",
       "sidecar_cpu_s",
       "upstream",
       0.33,
       false,
       {}},
      {"snapshot backlog controller peak RSS <= 0.25x upstream",
       "snap-backlog",
       "controller_peak_rss_mb",
       "upstream",
       0.25,
       false,
       {}},
      {"snapshot backlog sidecar peak RSS <= 0.25x upstream",
       "snap-backlog",
       "sidecar_peak_rss_mb",
       "upstream",
       0.25,
       false,
       {}},
      {"snapshot scale controller steady RSS <= 0.25x upstream",
       "snap-scale",
       "controller_rss_mb",
       "upstream",
       0.25,
       false,
       {}},
      {"snapshot scale sidecar steady RSS <= 0.25x upstream",
       "snap-scale",
       "sidecar_rss_mb",
       "upstream",
       0.25,
       false,
       {}},
      {"snapshot scale controller CPU <= 0.33x upstream",
       "snap-scale",
       "controller_cpu_s",
       "upstream",
       0.33,
       false,
       {}},
      {"snapshot scale sidecar CPU <= 0.33x upstream",
       "snap-scale",
       "sidecar_cpu_s",
       "upstream",
       0.33,
       false,
       {}},
      // The csi-resizer: the goals of the other binaries, at every QPS.
      {"resize backlog wall <= 1.1x floor", "resize-backlog", "wall_s", "floor", 1.1, false, {}},
      {"resize backlog CPU seconds <= 0.33x upstream",
       "resize-backlog",
       "cpu_s",
       "upstream",
       0.33,
       false,
       {}},
      {"resize backlog anonymous RSS <= 0.25x upstream",
       "resize-backlog",
       "rss_anon_mb",
       "upstream",
       0.25,
       false,
       {}},
  };
  return targets;
}

struct Cell {
  std::string workload;
  double latency_ms = 0;
  double qps = 0;
  std::vector<std::string> metrics;  // in order of first appearance
  std::map<std::string, std::map<std::string, std::vector<double>>> values;  // metric -> contender
};

std::optional<double> MedianOf(const Cell& cell, const std::string& metric,
                               const std::string& contender) {
  auto m = cell.values.find(metric);
  if (m == cell.values.end()) return std::nullopt;
  auto c = m->second.find(contender);
  if (c == m->second.end() || c->second.empty()) return std::nullopt;
  return Median(c->second);
}

std::string Number(std::optional<double> value) {
  if (!value) return "-";
  return fmt::format("{:.4g}", *value);
}

std::string Ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b == 0) return "-";
  return fmt::format("{:.2f}", *a / *b);
}

// The contenders a cell's table has columns for, in this order; the ratio
// columns compare ours (and mixed) with upstream and with the floor, and the
// pod stack's ours4 and csi-sidecars with upstream4.
const std::vector<std::string>& Sides() {
  static const std::vector<std::string> sides = {"ours", "mixed", "ours4", "csi-sidecars"};
  return sides;
}

bool Has(const Cell& cell, const std::string& contender) {
  for (const auto& [metric, by_contender] : cell.values) {
    if (by_contender.contains(contender)) return true;
  }
  return false;
}

// The reference the sides are divided by: upstream4 in a pod cell.
std::string ReferenceOf(const Cell& cell) {
  return Has(cell, "upstream4") ? "upstream4" : "upstream";
}

// Request counts, CPU and RSS are the contender's own; the floor runs inside
// the load generator, so it has no CPU/RSS figures of its own.
void RenderCell(const std::string& key, const Cell& cell, std::ostringstream& out) {
  std::vector<std::string> sides;
  for (const auto& side : Sides()) {
    if (Has(cell, side)) sides.push_back(side);
  }
  const std::string reference_name = ReferenceOf(cell);
  const bool upstream = Has(cell, reference_name);
  const bool floor = Has(cell, "floor");
  std::string header = "| figure |";
  std::string rule = "| --- |";
  auto column = [&](const std::string& name) {
    header += " " + name + " |";
    rule += " ---: |";
  };
  for (const auto& side : sides) column(side);
  if (upstream) column(reference_name);
  for (const auto& side : sides) {
    if (upstream) column(side + "/" + reference_name);
  }
  if (floor) column("floor");
  for (const auto& side : sides) {
    if (floor) column(side + "/floor");
  }
  out << fmt::format("### {} — driver latency {} ms, QPS {} \n\n", cell.workload, cell.latency_ms,
                     cell.qps)
      << "cell: `" << key << "` (workload,latency_ms,qps,burst,workers,n)\n\n"
      << header << "\n"
      << rule << "\n";
  for (const auto& metric : cell.metrics) {
    std::string row = "| " + metric + " |";
    for (const auto& side : sides) row += " " + Number(MedianOf(cell, metric, side)) + " |";
    auto reference = MedianOf(cell, metric, reference_name);
    if (upstream) row += " " + Number(reference) + " |";
    for (const auto& side : sides) {
      if (upstream) row += " " + Ratio(MedianOf(cell, metric, side), reference) + " |";
    }
    auto lowest = MedianOf(cell, metric, "floor");
    if (floor) row += " " + Number(lowest) + " |";
    for (const auto& side : sides) {
      if (floor) row += " " + Ratio(MedianOf(cell, metric, side), lowest) + " |";
    }
    out << row << "\n";
  }
  out << "\n";
}

}  // namespace

std::vector<CsvRow> ReadCsvRows(std::istream& in) {
  std::vector<CsvRow> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string field; std::getline(parts, field, ',');) fields.push_back(field);
    if (fields.size() != 10) continue;
    try {
      CsvRow row;
      row.cell = fmt::format("{},{},{},{},{},{}", fields[0], fields[1], fields[2], fields[3],
                             fields[4], fields[5]);
      row.workload = fields[0];
      row.latency_ms = std::stod(fields[1]);
      row.qps = std::stod(fields[2]);
      row.contender = fields[6];
      row.metric = fields[8];
      row.value = std::stod(fields[9]);
      rows.push_back(std::move(row));
    } catch (const std::exception&) {
    }
  }
  return rows;
}

std::string RenderReport(const std::vector<CsvRow>& rows) {
  std::vector<std::string> order;
  std::map<std::string, Cell> cells;
  for (const auto& row : rows) {
    auto [it, added] = cells.try_emplace(row.cell);
    Cell& cell = it->second;
    if (added) {
      order.push_back(row.cell);
      cell.workload = row.workload;
      cell.latency_ms = row.latency_ms;
      cell.qps = row.qps;
    }
    if (!cell.values.contains(row.metric)) cell.metrics.push_back(row.metric);
    cell.values[row.metric][row.contender].push_back(row.value);
  }
  std::ostringstream out;
  for (const auto& key : order) RenderCell(key, cells[key], out);

  out << "### Targets (ours vs. the reference, same cell)\n\n"
      << "| target | cell | ratio | verdict |\n| --- | --- | ---: | --- |\n";
  for (const auto& target : Targets()) {
    bool ran = std::any_of(order.begin(), order.end(), [&](const std::string& key) {
      return cells[key].workload == target.workload;
    });
    if (!ran) continue;  // another stack's, or a workload left out
    bool any = false;
    for (const auto& key : order) {
      const Cell& cell = cells[key];
      if (cell.workload != target.workload || (target.qps && cell.qps != *target.qps)) continue;
      std::string side = "ours";
      auto ours = MedianOf(cell, target.metric, side);
      if (!ours && target.metric.starts_with("sidecar_")) {
        side = "mixed";
        ours = MedianOf(cell, target.metric, side);
      }
      auto other = MedianOf(cell, target.metric, target.against);
      if (!ours || !other || *other == 0) continue;
      any = true;
      double ratio = *ours / *other;
      bool met = target.higher_is_better ? ratio >= target.bound : ratio <= target.bound;
      out << fmt::format("| {} | {} ms, QPS {}{} | {:.2f} | {} |\n", target.description,
                         cell.latency_ms, cell.qps, side == "ours" ? "" : " (" + side + ")", ratio,
                         met ? "met" : "**missed**");
    }
    if (!any) out << fmt::format("| {} | (not run) | - | - |\n", target.description);
  }
  return out.str();
}

}  // namespace bench
