#include "metrics/text_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace metrics {

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  char buf[64];
  // Shortest round-trip digits in scientific form, e.g. "2.3232512e+07".
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string scientific(buf, end);
  int exponent = std::atoi(scientific.c_str() + scientific.find('e') + 1);
  // Go's 'g' with shortest precision switches to %e outside [-4, 6).
  if (exponent < -4 || exponent >= 6) return scientific;
  auto [fixed_end, fixed_ec] =
      std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
  return std::string(buf, fixed_end);
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapeHelp(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void AppendSample(std::string& out, std::string_view name,
                  const std::vector<std::pair<std::string, std::string>>& labels, double value) {
  out.append(name);
  if (!labels.empty()) {
    out += '{';
    for (size_t i = 0; i < labels.size(); ++i) {
      if (i > 0) out += ',';
      out.append(labels[i].first).append("=\"").append(EscapeLabelValue(labels[i].second));
      out += '"';
    }
    out += '}';
  }
  out += ' ';
  out.append(FormatValue(value));
  out += '\n';
}

}  // namespace metrics
