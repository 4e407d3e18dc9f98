#include "kube/api/label_selector.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace kube {

std::string MatchLabelsQuery(const LabelSelector& selector) {
  std::string query;
  for (const auto& [key, value] : selector.match_labels) {  // StringMap iterates in key order
    if (!query.empty()) query += ',';
    query += key;
    query += '=';
    query += value;
  }
  return query;
}

namespace {

// One requirement as labels.Requirement.String() writes it; nullopt when
// LabelSelectorAsSelector would refuse it.
std::optional<std::string> FormatRequirement(const LabelSelectorRequirement& requirement) {
  std::vector<std::string> values = requirement.values;
  std::sort(values.begin(), values.end());
  std::string joined;
  for (const std::string& value : values) joined += (joined.empty() ? "" : ",") + value;
  const std::string& op = requirement.operator_;
  if ((op == "In" || op == "NotIn") && !values.empty()) {
    return requirement.key + (op == "In" ? " in (" : " notin (") + joined + ")";
  }
  if (op == "Exists" && values.empty()) return requirement.key;
  if (op == "DoesNotExist" && values.empty()) return "!" + requirement.key;
  return std::nullopt;
}

}  // namespace

std::string FormatLabelSelector(const LabelSelector& selector) {
  std::vector<std::pair<std::string, std::string>> requirements;  // (key, text)
  for (const auto& [key, value] : selector.match_labels) {
    requirements.emplace_back(key, key + "=" + value);
  }
  for (const LabelSelectorRequirement& requirement : selector.match_expressions) {
    std::optional<std::string> text = FormatRequirement(requirement);
    if (!text) return "<error>";
    requirements.emplace_back(requirement.key, *text);
  }
  if (requirements.empty()) return "<none>";
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string formatted;
  for (const auto& [key, text] : requirements) formatted += (formatted.empty() ? "" : ",") + text;
  return formatted;
}

}  // namespace kube
