// Pieces of the Prometheus text format 0.0.4, as client_golang's expfmt
// writes them. Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace metrics {

// Go's strconv.FormatFloat(v, 'g', -1, 64): "0.1", "2.3232512e+07", "+Inf".
std::string FormatValue(double value);

// Escapes `\`, `"` and newline in a label value.
std::string EscapeLabelValue(std::string_view value);
// Escapes `\` and newline in HELP text.
std::string EscapeHelp(std::string_view help);

// Appends `name{l1="v1",...} value\n`; label pairs are written in the order
// given (callers sort them). No braces without labels.
void AppendSample(std::string& out, std::string_view name,
                  const std::vector<std::pair<std::string, std::string>>& labels, double value);

}  // namespace metrics
